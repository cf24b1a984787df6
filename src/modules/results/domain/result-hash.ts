import { createHash } from 'node:crypto';
import objectHash from 'object-hash';

/**
 * `object-hash` with its default options (SHA-1, hex), as the original client computes it. Its serialisation is
 * collected and hashed in one go: `objectHash()` feeds the hash thousands of tiny updates for a result with key
 * timings, which costs more than the serialisation itself. Same digest (see the spec).
 */
export function resultHash(value: unknown): string {
  const parts: string[] = [];
  objectHash.writeToStream(value as object, {}, { write: (chunk: string) => parts.push(chunk) } as never);
  return createHash('sha1').update(parts.join(''), 'utf8').digest('hex');
}
