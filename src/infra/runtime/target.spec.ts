import { describeTarget } from './target';

describe('describeTarget', () => {
  it.each([
    ['postgres://typing:s3cret@db.internal:5432/typing', 'postgres://db.internal:5432/typing'],
    ['redis://:pw@cache:6379/2', 'redis://cache:6379/2'],
    ['redis://cache:6379', 'redis://cache:6379'],
    ['https://issuer.example/.well-known/jwks.json', 'https://issuer.example/.well-known/jwks.json'],
  ])('%s -> %s', (url, expected) => {
    expect(describeTarget(url)).toBe(expected);
    expect(describeTarget(url)).not.toMatch(/s3cret|pw@/);
  });

  it('never echoes what it cannot parse', () => {
    expect(describeTarget('not a url with password hunter2')).toBe('(unparsable URL)');
  });
});
