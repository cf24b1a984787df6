import { Transform, type TransformCallback } from 'node:stream';
import { newFileDigest } from '../../signing/account-file-signature';

const NEWLINE = 0x0a;

/**
 * Passes a file's bytes through unchanged while taking the SHA-512 of every byte before its last line (the bytes a
 * signature line signs), and keeps that last line. Only the bytes after the last newline that has bytes after it are
 * held back, so memory stays at a line or two.
 */
export class SignedBytes extends Transform {
  private readonly hash = newFileDigest();
  private tail: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const bytes = this.tail.length === 0 ? chunk : Buffer.concat([this.tail, chunk]);
    // A newline with bytes after it ends a line that is not the last one.
    const end = bytes.length >= 2 ? bytes.lastIndexOf(NEWLINE, bytes.length - 2) : -1;
    if (end >= 0) this.hash.update(bytes.subarray(0, end + 1));
    // A copy: a slice would keep the whole chunk alive.
    this.tail = Buffer.from(end >= 0 ? bytes.subarray(end + 1) : bytes);
    done(null, chunk);
  }

  /** After the last byte: the digest of everything before the last line, and that line (without its newline). */
  result(): { digest: Buffer; lastLine: string } {
    const text = this.tail.toString('utf8');
    return { digest: this.hash.digest(), lastLine: text.endsWith('\n') ? text.slice(0, -1) : text };
  }
}
