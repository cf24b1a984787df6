import { claimRewards } from './inbox-rewards';

describe('claimRewards', () => {
  it('sums XP and adds new badges', () => {
    expect(
      claimRewards(
        [],
        [
          { type: 'xp', item: 100 },
          { type: 'badge', item: { id: 14 } },
          { type: 'xp', item: 50 },
        ],
      ),
    ).toEqual({ xp: 150, badges: [{ id: 14 }] });
  });

  it('never adds a badge twice and keeps the selection of owned ones', () => {
    const owned = [{ id: 3, selected: true }, { id: 14 }];
    expect(
      claimRewards(owned, [
        { type: 'badge', item: { id: 3 } },
        { type: 'badge', item: { id: 7 } },
        { type: 'badge', item: { id: 7 } },
      ]),
    ).toEqual({ xp: 0, badges: [{ id: 3, selected: true }, { id: 14 }, { id: 7 }] });
  });

  it('ignores XP rewards that are not positive numbers', () => {
    expect(claimRewards([], [{ type: 'xp', item: -5 }]).xp).toBe(0);
  });

  it('does not change the owned list it was given', () => {
    const owned = [{ id: 1 }];
    claimRewards(owned, [{ type: 'badge', item: { id: 2 } }]);
    expect(owned).toEqual([{ id: 1 }]);
  });
});
