import { withoutUser } from './job-run-details';

describe('withoutUser (job run details at account deletion)', () => {
  it('drops the entries of the uid at any depth and keeps the rest as announced', () => {
    const details = {
      boards: [
        {
          language: 'english',
          mode: 'time',
          mode2: '15',
          top: [
            { uid: 'a', rank: 1 },
            { uid: 'b', rank: 2 },
          ],
        },
        { language: 'german', mode: 'time', mode2: '60', top: [{ uid: 'b', rank: 1 }] },
      ],
      top: [
        { uid: 'b', rank: 1, totalXp: 10 },
        { uid: 'c', rank: 2, totalXp: 5 },
      ],
      note: 'b',
    };
    expect(withoutUser(details, 'b')).toEqual({
      boards: [
        { language: 'english', mode: 'time', mode2: '15', top: [{ uid: 'a', rank: 1 }] },
        { language: 'german', mode: 'time', mode2: '60', top: [] },
      ],
      top: [{ uid: 'c', rank: 2, totalXp: 5 }],
      note: 'b',
    });
  });

  it('leaves details without the uid unchanged', () => {
    const details = { top: [{ uid: 'a', rank: 1 }], count: 3 };
    expect(withoutUser(details, 'z')).toEqual(details);
  });
});
