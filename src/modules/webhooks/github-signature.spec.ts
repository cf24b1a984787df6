import { checkGithubSignature, githubSignature } from './github-signature';

describe('checkGithubSignature', () => {
  const secret = 'It is a secret';
  const body = '{"action":"published","release":{"id":1}}';

  it('accepts the signature of the exact body', () => {
    expect(checkGithubSignature(secret, body, githubSignature(secret, body))).toBe('valid');
  });

  it('accepts upper-case hex', () => {
    const header = `sha256=${githubSignature(secret, body).slice(7).toUpperCase()}`;
    expect(checkGithubSignature(secret, body, header)).toBe('valid');
  });

  it('matches the published GitHub example', () => {
    // From GitHub's "Validating webhook deliveries" documentation.
    expect(githubSignature("It's a Secret to Everybody", 'Hello, World!')).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
  });

  it.each([
    ['another body', githubSignature(secret, `${body} `)],
    ['another secret', githubSignature('other', body)],
    ['no prefix', githubSignature(secret, body).slice(7)],
    ['sha1 prefix', `sha1=${githubSignature(secret, body).slice(7)}`],
    ['short digest', githubSignature(secret, body).slice(0, -2)],
    ['long digest', `${githubSignature(secret, body)}00`],
    ['not hex', `sha256=${'z'.repeat(64)}`],
  ])('refuses %s', (_label, header) => {
    expect(checkGithubSignature(secret, body, header)).toBe('invalid');
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['repeated', [githubSignature(secret, body), githubSignature(secret, body)]],
  ])('treats an %s header as missing', (_label, header) => {
    expect(checkGithubSignature(secret, body, header)).toBe('missing');
  });
});
