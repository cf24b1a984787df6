import { progressBroadcast } from './progress';
import type { Member, Progress } from './room';

const member = (id: string, flags: Partial<Member>) =>
  ({ id, isTyping: false, isFinished: false, ...flags }) as Member;
const tick = (wpm: number, raw = wpm + 5): Progress => ({
  wpm,
  raw,
  acc: 95,
  progress: 50,
  wordIndex: 5,
  letterIndex: 2,
  afk: false,
});

describe('progressBroadcast', () => {
  const members = {
    a: member('a', { isTyping: true }),
    b: member('b', { isFinished: true }),
    c: member('c', {}),
  };

  it('relays the racers’ last figures with their share of the fastest speed, and the room’s range', () => {
    expect(
      progressBroadcast({ members }, { a: tick(50), b: tick(100), c: tick(300), gone: tick(400) }),
    ).toEqual({
      users: { a: { ...tick(50), wpmProgress: 50 }, b: { ...tick(100), wpmProgress: 100 } },
      roomMaxWpm: 100,
      roomMinWpm: 50,
      roomMaxRaw: 105,
      roomMinRaw: 55,
    });
  });

  it('sends an empty tick before anyone typed', () => {
    expect(progressBroadcast({ members }, {})).toEqual({
      users: {},
      roomMaxWpm: 0,
      roomMinWpm: 0,
      roomMaxRaw: 0,
      roomMinRaw: 0,
    });
  });

  it('never divides by a zero speed', () => {
    expect(progressBroadcast({ members }, { a: tick(0, 0) }).users.a?.wpmProgress).toBe(0);
  });
});
