import { ID_PATTERN, newId } from './ids';

describe('newId', () => {
  it('gives 24 lower-case hex characters that the id pattern accepts', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(ID_PATTERN.test(id)).toBe(true);
  });

  it('never repeats, across many refills of its pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newId());
    expect(new Set(ids).size).toBe(ids.length);
  });
});
