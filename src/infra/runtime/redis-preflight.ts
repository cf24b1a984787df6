import { createConnection } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import Redis, { Cluster } from 'ioredis';
import type { AppEnv, RedisNode } from '../../config/env';
import { keepHostName } from '../redis/redis';
import { connectionOptionsOf, RedisTlsFileError } from '../redis/redis-security';
import { DependencyError } from './dependency-error';
import { describeTarget } from './target';

type RedisEnv = Pick<
  AppEnv,
  'redisUrl' | 'redisClusterNodes' | 'redisUsername' | 'redisPassword' | 'redisTls'
>;

/** What the messages need to know about the configuration that failed. */
interface Context {
  cluster: boolean;
  tls: boolean;
  /** Where the target is named (`REDIS_URL`, `REDIS_CLUSTER_NODES`) and where it points, without credentials. */
  variable: string;
  target: string;
  /** Where the password comes from: `REDIS_PASSWORD`, or `REDIS_URL` when it carries one. */
  passwordVariable: string;
  caFile?: string;
  servername?: string;
  clientCertificate: boolean;
  /** The TLS options of the connections (for a probe that sees what the client library hides). */
  tlsOptions?: ConnectionOptions;
  timeoutMs: number;
}

/** Node's codes for a server certificate not signed by a trusted CA (or not valid now). */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/** Whether a TLS handshake completes on host:port (no certificate check: only "does it speak TLS"). */
function speaksTls(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, timeout: timeoutMs });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * What a server says to a TLS connection made with our options that sends a PING: nothing wrong (undefined), or the
 * error. A server refusing our (missing) client certificate does so by an alert after the handshake, which ioredis,
 * writing at once, sees only as a reset.
 */
function tlsRefusal(
  node: RedisNode,
  options: ConnectionOptions,
  timeoutMs: number,
): Promise<(Error & { code?: string }) | undefined> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ ...options, host: node.host, port: node.port, timeout: timeoutMs });
    const done = (error?: Error) => {
      socket.destroy();
      resolve(error);
    };
    socket.once('secureConnect', () => socket.write('PING\r\n'));
    socket.once('data', () => done());
    socket.once('error', (e: Error) => done(e));
    socket.once('timeout', () => done());
    socket.once('close', () => done());
  });
}

/** Whether host:port answers a plain-text PING as Redis does (`+PONG`, or an error such as `-NOAUTH`). */
function speaksPlainRedis(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port, timeout: timeoutMs });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data: Buffer) => done(data[0] === 0x2b || data[0] === 0x2d));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
    socket.once('close', () => done(false));
  });
}

/**
 * Turns a failed connection into the variable to fix and what is wrong with it. A plain client on a TLS port sees
 * only a reset, a TLS client on a plain port only a timeout: those are confirmed by speaking the other protocol to
 * the same port, so the message says which one the server speaks.
 */
async function explain(
  error: Error & { code?: string },
  ctx: Context,
  node?: RedisNode,
): Promise<DependencyError> {
  const fail = (variable: string, problem: string, reason: string) =>
    new DependencyError(variable, ctx.target, reason, problem);
  const message = error.message;
  const code = error.code ?? '';
  if (message.startsWith('WRONGPASS'))
    return fail(
      ctx.passwordVariable,
      'was refused',
      `${message} (check ${ctx.passwordVariable === 'REDIS_URL' ? "REDIS_URL's user:password@" : 'REDIS_USERNAME and REDIS_PASSWORD'})`,
    );
  if (message.startsWith('NOAUTH'))
    return fail(
      'REDIS_PASSWORD',
      'is missing',
      `${message} (the server requires a password: set REDIS_PASSWORD${ctx.cluster ? '' : ', or user:password@ in REDIS_URL'})`,
    );
  if (UNTRUSTED.has(code))
    return ctx.caFile
      ? fail(
          'REDIS_TLS_CA_FILE',
          "does not trust the server's certificate",
          `${message} (name the CA that signed it)`,
        )
      : fail(
          'REDIS_TLS_CA_FILE',
          'is needed',
          `the system CAs do not trust the server's certificate: ${message} (name the CA that signed it)`,
        );
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return ctx.servername
      ? fail('REDIS_TLS_SERVERNAME', "does not match the server's certificate", message)
      : fail(
          'REDIS_TLS_SERVERNAME',
          'is needed',
          `the server's certificate does not name the host connected to: ${message}`,
        );
  if (
    /ALERT_(CERTIFICATE_REQUIRED|BAD_CERTIFICATE|UNKNOWN_CA|CERTIFICATE_UNKNOWN|HANDSHAKE_FAILURE)/.test(code)
  )
    return ctx.clientCertificate
      ? fail(
          'REDIS_TLS_CERT_FILE',
          'was refused',
          `the server does not accept this client certificate: ${message}`,
        )
      : fail('REDIS_TLS_CERT_FILE', 'is needed', `the server requires a client certificate: ${message}`);
  // The symptoms of a protocol mismatch (a reset, a handshake that never ends) are confirmed by a probe that an
  // answering server passes within milliseconds; a failure that cannot be a mismatch (refused, unknown host) is not.
  const probeMs = Math.min(ctx.timeoutMs, 1000);
  const reset = ['ECONNRESET', 'EPIPE'].includes(code) || message === 'Connection is closed.';
  const stalled = reset || code === 'ETIMEDOUT' || code === 'EPROTO' || code.startsWith('ERR_SSL_');
  if (node && ctx.tls && reset && ctx.tlsOptions) {
    const refusal = await tlsRefusal(node, ctx.tlsOptions, probeMs);
    if (refusal?.code && refusal.code !== code) return explain(refusal, ctx);
  }
  const tlsSwitch = ctx.cluster ? 'REDIS_TLS' : 'REDIS_URL';
  if (node && !ctx.tls && reset && (await speaksTls(node.host, node.port, probeMs)))
    return fail(
      tlsSwitch,
      'needs TLS',
      `the server speaks TLS only (${message}): ${ctx.cluster ? 'set REDIS_TLS=true' : 'write rediss://'}`,
    );
  if (node && ctx.tls && stalled && (await speaksPlainRedis(node.host, node.port, probeMs)))
    return fail(
      tlsSwitch,
      'is not TLS',
      `the server speaks plain Redis, not TLS (${message}): ${ctx.cluster ? 'set REDIS_TLS=false' : 'write redis://'}`,
    );
  return fail(ctx.variable, 'is unreachable', message);
}

/**
 * Connects one client to one server and reads `INFO cluster`. ioredis rejects `connect()` with a bare "Connection is
 * closed."; the cause (WRONGPASS, a certificate error, ECONNREFUSED) arrives as an `error` event, so that is thrown.
 */
async function infoOf(
  where: { url: string } | RedisNode,
  options: ReturnType<typeof connectionOptionsOf>,
  timeoutMs: number,
): Promise<string> {
  const settings = {
    ...options,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  };
  const client = 'url' in where ? new Redis(where.url, settings) : new Redis({ ...where, ...settings });
  let cause: Error | undefined;
  client.on('error', (e: Error) => (cause ??= e));
  try {
    await client.connect();
    return await client.info('cluster');
  } catch (e) {
    throw cause ?? e;
  } finally {
    // After a failed connect the client has ended and its socket is closed: disconnecting then would wait 2 s (a
    // timer that kept the process alive) for a close that already happened.
    if (client.status !== 'end') client.disconnect();
  }
}

/** host:port of a Redis URL (for the protocol probes). */
function nodeOf(url: string): RedisNode | undefined {
  try {
    const u = new URL(url);
    return { host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port || 6379) };
  } catch {
    return undefined;
  }
}

const describeNodes = (nodes: RedisNode[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');

/**
 * Checks the Redis the service is configured for: its TLS files, then a connection (TLS, credentials) to the server
 * or to a seed of the Cluster, then the Cluster's slot map. Throws a `DependencyError` naming what to fix.
 */
export async function checkRedis(env: RedisEnv, timeoutMs: number): Promise<void> {
  const cluster = env.redisClusterNodes.length > 0;
  const ctx: Context = {
    cluster,
    tls: env.redisTls !== undefined || (!cluster && env.redisUrl.startsWith('rediss:')),
    variable: cluster ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL',
    target: cluster ? describeNodes(env.redisClusterNodes) : describeTarget(env.redisUrl),
    passwordVariable: env.redisPassword === undefined && !cluster ? 'REDIS_URL' : 'REDIS_PASSWORD',
    caFile: env.redisTls?.caFile,
    servername: env.redisTls?.servername,
    clientCertificate: env.redisTls?.certFile !== undefined,
    timeoutMs,
  };
  let options: ReturnType<typeof connectionOptionsOf>;
  try {
    options = connectionOptionsOf(env);
  } catch (e) {
    if (e instanceof RedisTlsFileError) throw new DependencyError(e.variable, e.file, e.detail, e.problem);
    throw e;
  }
  ctx.tlsOptions = ctx.tls ? (options.tls ?? {}) : undefined;
  if (!cluster) {
    let info: string;
    try {
      info = await infoOf({ url: env.redisUrl }, options, timeoutMs);
    } catch (e) {
      throw await explain(e as Error, ctx, nodeOf(env.redisUrl));
    }
    // A single-server client on a Cluster node would fail every key of another node's slots (MOVED): say so now.
    if (/cluster_enabled:1/.test(info))
      throw new DependencyError(
        ctx.variable,
        ctx.target,
        'this is a Redis Cluster node: list the nodes in REDIS_CLUSTER_NODES instead',
        'names a Cluster node',
      );
    return;
  }
  await checkSeeds(env.redisClusterNodes, options, ctx);
  await checkSlots(env.redisClusterNodes, options, ctx);
}

/**
 * One seed must answer as a Cluster node with these credentials and TLS settings: the Cluster client itself reports
 * only "None of startup nodes is available", whatever the cause.
 */
async function checkSeeds(
  nodes: RedisNode[],
  options: ReturnType<typeof connectionOptionsOf>,
  ctx: Context,
): Promise<void> {
  // All at once, as the Cluster client tries them: a silent seed costs one timeout, not one per seed.
  const answers = await Promise.allSettled(nodes.map((node) => infoOf(node, options, ctx.timeoutMs)));
  if (answers.some((a) => a.status === 'fulfilled' && /cluster_enabled:1/.test(a.value))) return;
  const index = answers.findIndex((a) => a.status === 'rejected');
  if (index >= 0)
    throw await explain((answers[index] as PromiseRejectedResult).reason as Error, ctx, nodes[index]);
  throw new DependencyError(
    ctx.variable,
    ctx.target,
    'no seed is a Redis Cluster node (cluster_enabled:0): name a single server in REDIS_URL instead',
    'names no Cluster node',
  );
}

/** The Cluster client reads the slot map (from the seeds, then every master), and the cluster serves all of it. */
async function checkSlots(
  nodes: RedisNode[],
  options: ReturnType<typeof connectionOptionsOf>,
  ctx: Context,
): Promise<void> {
  const client = new Cluster(nodes, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    enableOfflineQueue: false,
    redisOptions: { ...options, connectTimeout: ctx.timeoutMs, maxRetriesPerRequest: 0 },
    ...(options.tls ? { dnsLookup: keepHostName } : {}),
  });
  let cause: Error | undefined;
  client.on('error', () => undefined);
  client.on('node error', (e: Error) => (cause ??= e));
  try {
    await client.connect();
    const info = (await client.cluster('INFO')) as string;
    if (!/cluster_state:ok/.test(info)) throw new Error('cluster_state is not ok');
  } catch (e) {
    throw await explain(cause ?? (e as Error), ctx);
  } finally {
    client.disconnect();
  }
}
