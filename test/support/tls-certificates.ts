import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files of a throwaway PKI, in a temporary directory `remove()` deletes. */
export interface TestCertificates {
  dir: string;
  /** The CA that signed the server and client certificates. */
  caFile: string;
  /** For 127.0.0.1 and localhost (also the servers' client certificate towards their cluster peers). */
  serverCertFile: string;
  serverKeyFile: string;
  /** A client certificate signed by the CA (mutual TLS). */
  clientCertFile: string;
  clientKeyFile: string;
  /** Another CA, which signed nothing here: a client trusting only it must refuse the server. */
  otherCaFile: string;
  remove(): Promise<void>;
}

const openssl = (dir: string, args: string[]) => run('openssl', args, { cwd: dir });

/** A self-signed CA (EC P-256: fast to make). */
async function makeCa(dir: string, name: string, subject: string): Promise<void> {
  await openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=${subject}`,
  ]);
}

/** A key and a certificate for `subject`, signed by the CA `ca`, with the extensions in `extensions`. */
async function makeSigned(dir: string, name: string, subject: string, extensions: string): Promise<void> {
  await openssl(dir, [
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
    '-subj',
    `/CN=${subject}`,
  ]);
  await writeFile(join(dir, `${name}.ext`), extensions);
  await openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-extfile',
    `${name}.ext`,
  ]);
}

/**
 * Makes a CA, a server certificate for the loopback address signed by it, a client certificate, and an unrelated CA,
 * with the system's `openssl` (a few hundred ms).
 */
export async function makeTestCertificates(): Promise<TestCertificates> {
  const dir = await mkdtemp(join(tmpdir(), 'typing-tls-'));
  try {
    await Promise.all([makeCa(dir, 'ca', 'typing test CA'), makeCa(dir, 'other-ca', 'unrelated CA')]);
    await Promise.all([
      // Both usages: redis-server presents the same certificate to the peers it connects to (cluster bus).
      makeSigned(
        dir,
        'server',
        'localhost',
        'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n',
      ),
      makeSigned(dir, 'client', 'typing api', 'extendedKeyUsage=clientAuth\n'),
    ]);
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    dir,
    caFile: join(dir, 'ca.crt'),
    serverCertFile: join(dir, 'server.crt'),
    serverKeyFile: join(dir, 'server.key'),
    clientCertFile: join(dir, 'client.crt'),
    clientKeyFile: join(dir, 'client.key'),
    otherCaFile: join(dir, 'other-ca.crt'),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
