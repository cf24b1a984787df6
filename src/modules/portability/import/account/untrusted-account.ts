import type { UserBundle, UserRow } from '../import-records';
import type { Notes } from '../mapped';

/** A new account's flags on this instance (the users table's defaults): an untrusted file neither gives nor takes them. */
const INSTANCE_FLAGS = { canReport: true, canManageApeKeys: true } as const;

const RECOMPUTED = 'computed here from the imported results, not taken from the file';

/**
 * The account of an untrusted file (issue 29): what the file claims about the account that this instance grants or
 * derives is not taken from it, and each such field is listed in the rejects file with the file's value.
 * - typing stats, XP and the streak start at zero and grow with each imported result, as submissions make them
 *   (the writer derives them), as do the personal bests, the tags' bests and the daily activity;
 * - no premium, no badge, no chat account link (an identity claim: linked again here), no permission (never carried);
 * - `canReport` and `canManageApeKeys` are this instance's defaults, whatever the file says (it could say anything);
 * - a ban in the file is kept, and so are the leaderboard opt-out and the last name change (the user's own);
 * - mail keeps its text, without rewards (they would grant badges or XP when claimed).
 */
export function withoutGrants(bundle: UserBundle, notes: Notes): UserBundle {
  const user: UserRow = { ...bundle.user };
  const set = <K extends keyof UserRow>(field: K, value: UserRow[K], path: string, reason: string) => {
    if (JSON.stringify(user[field]) !== JSON.stringify(value)) notes.changed(path, reason, user[field]);
    user[field] = value;
  };
  set('xp', 0, 'xp', RECOMPUTED);
  set('completed_tests', 0, 'completedTests', RECOMPUTED);
  set('started_tests', 0, 'startedTests', RECOMPUTED);
  set('time_typing', 0, 'timeTyping', RECOMPUTED);
  set('streak_length', 0, 'streak.length', RECOMPUTED);
  set('streak_max_length', 0, 'streak.maxLength', RECOMPUTED);
  set('streak_last_result_at', null, 'streak.lastResultTimestamp', RECOMPUTED);
  const notGranted = (what: string) => `${what} is not granted from a file: this instance's default applies`;
  set('premium_start_at', null, 'premium.startTimestamp', notGranted('premium'));
  set('premium_expires_at', null, 'premium.expirationTimestamp', notGranted('premium'));
  set('inventory_badges', [], 'badges', notGranted('a badge'));
  // Neither granted nor taken by the file: a flag the file says was revoked is revoked again here by support.
  set('can_report', INSTANCE_FLAGS.canReport, 'canReport', notGranted('a flag'));
  set('can_manage_ape_keys', INSTANCE_FLAGS.canManageApeKeys, 'canManageApeKeys', notGranted('a flag'));
  const relink =
    'a chat account link is an identity claim, not taken from a file: the user links it again here';
  set('chat_id', null, 'chat.id', relink);
  set('chat_avatar', null, 'chat.avatar', relink);

  for (const pb of bundle.personalBests)
    notes.leftOut(`personalBest[${pb.mode}/${pb.mode2}/${pb.language}]`, RECOMPUTED, pb);
  for (const tag of bundle.tags)
    for (const pb of tag.personalBests)
      notes.leftOut(`tag[${tag.id}].personalBests[${pb.mode}/${pb.mode2}/${pb.language}]`, RECOMPUTED, pb);
  if ((bundle.testActivity ?? []).length > 0)
    notes.leftOut('testActivity', `${RECOMPUTED} (${bundle.testActivity?.length} days in the file)`);
  const mail = bundle.mail.map((m) => {
    if (m.rewards.length === 0) return m;
    notes.changed(`inboxMail[${m.id}].rewards`, 'rewards are not granted from a file', m.rewards);
    return { ...m, rewards: [] };
  });
  return {
    ...bundle,
    user,
    personalBests: [],
    tags: bundle.tags.map((tag) => ({ ...tag, personalBests: [] })),
    testActivity: [],
    mail,
    permissions: [],
  };
}
