import { labelProblem, userNameProblem } from './user-name';

describe('userNameProblem', () => {
  it.each(['a', 'Bob', 'bob_the-build.1', 'x'.repeat(16), '9', 'a.', '_x', '-x'])('accepts %p', (name) => {
    expect(userNameProblem(name)).toBeNull();
  });

  it.each([
    ['', 'must be 1-16 characters long'],
    ['x'.repeat(17), 'must be 1-16 characters long'],
    ['has space', 'may only contain letters, digits, underscores, hyphens and dots'],
    ['émile', 'may only contain letters, digits, underscores, hyphens and dots'],
    ['a/b', 'may only contain letters, digits, underscores, hyphens and dots'],
    ['.', 'cannot start with a dot'],
    ['..', 'cannot start with a dot'],
    ['.hidden', 'cannot start with a dot'],
    [12, 'must be a string'],
  ])('refuses %p: %s', (name, problem) => {
    expect(userNameProblem(name)).toBe(problem);
  });
});

describe('labelProblem', () => {
  it.each(['a', 'tag1', 'my_tag', 'my-tag-2', 'x'.repeat(16)])('accepts %p', (label) => {
    expect(labelProblem(label)).toBeNull();
  });

  it.each(['', 'x'.repeat(17), '_tag', 'tag_', 'a__b', 'a-_b', 'with space', 'dot.ted', 5])(
    'refuses %p',
    (label) => {
      expect(labelProblem(label)).not.toBeNull();
    },
  );
});
