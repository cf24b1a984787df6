import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { TLS_VARIABLES, type RedisSecurity, type RedisTls } from '../../config/redis-env';

/** A TLS file that cannot serve: named by its variable and path (the path is no secret, the contents may be). */
export class RedisTlsFileError extends Error {
  constructor(
    readonly variable: string,
    readonly file: string,
    readonly problem: string,
    readonly detail: string,
  ) {
    super(`${variable} (${file}) ${problem}: ${detail}`);
    this.name = 'RedisTlsFileError';
  }
}

function read(variable: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new RedisTlsFileError(variable, file, 'is unreadable', (e as Error).message);
  }
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The certificates of a PEM file, each checked: Node's TLS silently skips what is not a certificate, so a wrong file
 * would otherwise surface only as "certificate not trusted" at the first connection.
 */
function certificates(variable: string, file: string): Buffer {
  const pem = read(variable, file);
  const blocks = pem.toString('utf8').match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0)
    throw new RedisTlsFileError(variable, file, 'is not a certificate', 'no PEM block "BEGIN CERTIFICATE"');
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (e) {
      throw new RedisTlsFileError(variable, file, 'is not a certificate', (e as Error).message);
    }
  }
  return pem;
}

function privateKey(variable: string, file: string): Buffer {
  const pem = read(variable, file);
  try {
    createPrivateKey(pem);
  } catch {
    // The parser's message might quote the key: say only what is wrong.
    throw new RedisTlsFileError(variable, file, 'is not a private key', 'no usable PEM private key');
  }
  return pem;
}

/**
 * Node TLS options of every Redis connection: the CA file replaces the system CAs (a private CA is then the only one
 * trusted), the server name is checked instead of the host connected to, and a client certificate is presented.
 * Reads the files now; throws `RedisTlsFileError` naming the variable of a file that cannot serve.
 */
export function tlsOptionsOf(tls: RedisTls): ConnectionOptions {
  return {
    ...(tls.caFile ? { ca: certificates(TLS_VARIABLES.caFile, tls.caFile) } : {}),
    ...(tls.certFile && tls.keyFile
      ? {
          cert: certificates(TLS_VARIABLES.certFile, tls.certFile),
          key: privateKey(TLS_VARIABLES.keyFile, tls.keyFile),
        }
      : {}),
    ...(tls.servername ? { servername: tls.servername } : {}),
  };
}

/** ioredis connection options for the credentials and TLS of `security` (those `REDIS_URL` carries stay in it). */
export function connectionOptionsOf(security: RedisSecurity): {
  username?: string;
  password?: string;
  tls?: ConnectionOptions;
} {
  return {
    ...(security.redisUsername !== undefined ? { username: security.redisUsername } : {}),
    ...(security.redisPassword !== undefined ? { password: security.redisPassword } : {}),
    ...(security.redisTls ? { tls: tlsOptionsOf(security.redisTls) } : {}),
  };
}
