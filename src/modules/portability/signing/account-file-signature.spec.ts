import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { SignedBytes } from '../import/readers/signed-bytes';
import {
  checkSignature,
  fingerprint,
  InstanceKey,
  newKeyPair,
  privateKeyFrom,
  publicKeyFrom,
  sameKey,
} from './account-file-signature';

const body =
  '{"format":"x","version":1}\n{"type":"account","data":{"name":"é ✓"}}\n{"type":"end","data":{}}\n';

function signed(key: InstanceKey, text = body): string {
  return text + key.signatureLine(createHash('sha512').update(text).digest());
}

/** The digest and last line SignedBytes takes from `bytes` fed in chunks of `size`. */
async function tapped(bytes: Buffer, size: number) {
  const tap = new SignedBytes();
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  const passed: Buffer[] = [];
  for await (const chunk of Readable.from(chunks).pipe(tap)) passed.push(chunk as Buffer);
  expect(Buffer.concat(passed)).toEqual(bytes);
  return tap.result();
}

describe('account file signatures', () => {
  const pair = newKeyPair();
  const key = new InstanceKey('instance-a', privateKeyFrom(pair.privateKey));

  it('signs the bytes before the last line, and verifies them whatever the chunks they come in', async () => {
    const file = Buffer.from(signed(key), 'utf8');
    for (const size of [1, 2, 3, 7, 64, 100_000]) {
      const { digest, lastLine } = await tapped(file, size);
      expect({ size, check: checkSignature(lastLine, digest) }).toEqual({
        size,
        check: { state: 'valid', instanceId: 'instance-a', publicKey: pair.publicKey },
      });
    }
  });

  it('says unsigned for a file that ends with its end line', async () => {
    const { digest, lastLine } = await tapped(Buffer.from(body), 5);
    expect(checkSignature(lastLine, digest)).toEqual({ state: 'unsigned' });
  });

  it.each([
    ['a changed byte', (f: string) => f.replace('é', 'e'), 'the file changed since it was signed'],
    [
      'a line added before it',
      (f: string) => f.replace('{"type":"end"', '{"type":"x","data":1}\n{"type":"end"'),
      'the file changed',
    ],
    [
      'a cut signature',
      (f: string) => f.replace(/"value":"([A-Za-z0-9_-]{80})[A-Za-z0-9_-]+"/, '"value":"$1"'),
      'not 64 bytes',
    ],
    ['a cut line', (f: string) => f.slice(0, -20), 'not JSON'],
    [
      'another instance id',
      (f: string) => f.replace('"instanceId":"instance-a"', '"instanceId":"instance-b"'),
      'the file changed',
    ],
  ])('refuses %s', async (_name, edit, reason) => {
    const { digest, lastLine } = await tapped(Buffer.from(edit(signed(key))), 16);
    const check = checkSignature(lastLine, digest);
    expect(check.state).toBe('invalid');
    expect(check.state === 'invalid' && check.reason).toContain(reason);
  });

  it('knows a key by its raw bytes and fingerprint, and takes PEM or base64 DER', () => {
    expect(publicKeyFrom(pair.publicKey)).not.toBeNull();
    expect(publicKeyFrom('too-short')).toBeNull();
    expect(sameKey(pair.publicKey, key.publicKey)).toBe(true);
    expect(sameKey(pair.publicKey, newKeyPair().publicKey)).toBe(false);
    expect(fingerprint(pair.publicKey)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const pem = privateKeyFrom(pair.privateKey).export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(new InstanceKey('i', privateKeyFrom(pem)).publicKey).toBe(pair.publicKey);
    expect(() => privateKeyFrom('bm90IGEga2V5')).toThrow('not a PKCS#8 private key');
  });
});
