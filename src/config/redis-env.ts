/**
 * Authentication and TLS of the Redis connections (a managed Redis needs both): from `REDIS_URL` itself
 * (`rediss://user:password@host:port`) or from `REDIS_USERNAME`, `REDIS_PASSWORD` and `REDIS_TLS*`, which also serve a
 * Redis Cluster (`REDIS_CLUSTER_NODES` takes only `host:port`). Each fact comes from one place: a contradiction is
 * refused at start rather than resolved by a precedence an operator would have to know.
 */

/** TLS to Redis: the certificate authority to trust (else the system's), the name to check, a client certificate. */
export interface RedisTls {
  /** PEM file of the CA(s) that signed the server certificates (`REDIS_TLS_CA_FILE`); without it, the system CAs. */
  caFile?: string;
  /** The name the server certificates must carry (`REDIS_TLS_SERVERNAME`), when not the host connected to. */
  servername?: string;
  /** A client certificate and its key, PEM (`REDIS_TLS_CERT_FILE`, `REDIS_TLS_KEY_FILE`), for mutual TLS. */
  certFile?: string;
  keyFile?: string;
}

export interface RedisSecurity {
  /** ACL user (`REDIS_USERNAME`); none: Redis's default user. Not set when `REDIS_URL` names the user. */
  redisUsername?: string;
  /** `REDIS_PASSWORD`; not set when `REDIS_URL` carries the password. */
  redisPassword?: string;
  /** TLS (`rediss://` or `REDIS_TLS=true`); undefined: plain TCP. */
  redisTls?: RedisTls;
}

type Source = Record<string, string | undefined>;

function str(src: Source, key: string): string | undefined {
  const raw = src[key]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A REDIS_URL's scheme and whether it carries a user or password, never echoing it (it may hold a password). */
function urlFacts(
  url: string,
  fail: (message: string) => never,
): { tls: boolean; user: boolean; password: boolean } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('REDIS_URL is not a URL: expected redis://[user:password@]host:port or rediss://...');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    fail(`REDIS_URL must start with redis:// or rediss:// (TLS) (got "${parsed.protocol}//")`);
  return {
    tls: parsed.protocol === 'rediss:',
    user: parsed.username !== '',
    password: parsed.password !== '',
  };
}

/**
 * Reads the Redis credentials and TLS settings. `redisUrl` is empty for a Cluster. `fallback` supplies what the
 * caller's defaults say (tests, tools) when the environment says nothing.
 */
export function readRedisSecurity(
  src: Source,
  redisUrl: string,
  fallback: RedisSecurity,
  fail: (message: string) => never,
): RedisSecurity {
  const username = str(src, 'REDIS_USERNAME') ?? fallback.redisUsername;
  const password = str(src, 'REDIS_PASSWORD') ?? fallback.redisPassword;
  const tlsRaw = str(src, 'REDIS_TLS')?.toLowerCase();
  if (tlsRaw !== undefined && !['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'].includes(tlsRaw))
    fail(`REDIS_TLS must be true or false (got "${src.REDIS_TLS}")`);
  const tlsAsked = tlsRaw === undefined ? undefined : ['true', '1', 'yes', 'on'].includes(tlsRaw);
  const files: RedisTls = {
    caFile: str(src, 'REDIS_TLS_CA_FILE') ?? fallback.redisTls?.caFile,
    servername: str(src, 'REDIS_TLS_SERVERNAME') ?? fallback.redisTls?.servername,
    certFile: str(src, 'REDIS_TLS_CERT_FILE') ?? fallback.redisTls?.certFile,
    keyFile: str(src, 'REDIS_TLS_KEY_FILE') ?? fallback.redisTls?.keyFile,
  };

  let tls: boolean;
  if (redisUrl) {
    const url = urlFacts(redisUrl, fail);
    // The URL is the one place an operator looks: REDIS_TLS may repeat its scheme, never contradict it.
    if (tlsAsked === true && !url.tls)
      fail('REDIS_TLS=true but REDIS_URL is redis:// (plain): write rediss:// for TLS');
    if (tlsAsked === false && url.tls)
      fail('REDIS_TLS=false but REDIS_URL is rediss:// (TLS): write redis:// for plain TCP');
    if ((url.user || url.password) && (username !== undefined || password !== undefined))
      fail(
        'Give the Redis credentials once: in REDIS_URL (rediss://user:password@host) or in REDIS_USERNAME and ' +
          'REDIS_PASSWORD, not both',
      );
    tls = url.tls;
  } else {
    tls = tlsAsked ?? fallback.redisTls !== undefined;
  }
  if (username !== undefined && password === undefined)
    fail('REDIS_USERNAME needs REDIS_PASSWORD (an ACL user signs in with both)');
  if ((files.certFile === undefined) !== (files.keyFile === undefined))
    fail('REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE go together (a client certificate and its key)');
  const set = (Object.keys(files) as (keyof RedisTls)[]).filter((k) => files[k] !== undefined);
  if (!tls && set.length > 0)
    fail(
      `${set.map((k) => TLS_VARIABLES[k]).join(', ')} need TLS: ${redisUrl ? 'write rediss:// in REDIS_URL' : 'set REDIS_TLS=true'}`,
    );
  return {
    ...(username !== undefined ? { redisUsername: username } : {}),
    ...(password !== undefined ? { redisPassword: password } : {}),
    ...(tls ? { redisTls: Object.fromEntries(set.map((k) => [k, files[k]])) as RedisTls } : {}),
  };
}

/** The variable each TLS setting comes from (named in errors). */
export const TLS_VARIABLES: Record<keyof RedisTls, string> = {
  caFile: 'REDIS_TLS_CA_FILE',
  servername: 'REDIS_TLS_SERVERNAME',
  certFile: 'REDIS_TLS_CERT_FILE',
  keyFile: 'REDIS_TLS_KEY_FILE',
};
