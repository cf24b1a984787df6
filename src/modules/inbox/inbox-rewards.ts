import type { MailReward } from './inbox.types';

export interface Badge {
  id: number;
  selected?: boolean;
}

/**
 * What claiming these rewards gives: their XP summed, and the badges added to the owned ones, each id once (owned
 * badges keep their `selected` flag).
 */
export function claimRewards(owned: Badge[], rewards: MailReward[]): { xp: number; badges: Badge[] } {
  let xp = 0;
  const badges = [...owned];
  for (const reward of rewards) {
    if (reward.type === 'xp' && Number.isFinite(reward.item) && reward.item > 0) xp += reward.item;
    if (reward.type === 'badge' && !badges.some((b) => b.id === reward.item.id)) {
      badges.push({ id: reward.item.id });
    }
  }
  return { xp, badges };
}
