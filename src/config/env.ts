import { ENV_VARIABLES as V } from './env-variables';
import { readRedisSecurity, type RedisSecurity } from './redis-env';

export type { RedisSecurity, RedisTls } from './redis-env';

/**
 * Process environment, read and validated once at boot. Everything the service needs from the outside world comes
 * through here, so tests and the benchmark build an `AppEnv` directly instead of mutating `process.env`. Defaults,
 * lower bounds and descriptions of the variables are in `env-variables.ts` (the source of docs/configuration.md).
 */
export type AppMode = 'dev' | 'production';
export type AuthProviderKind = 'firebase' | 'oidc' | 'none';

export interface AppEnv extends RedisSecurity {
  mode: AppMode;
  port: number;
  host: string;
  databaseUrl: string;
  databasePoolMax: number;
  /** Server-side limit of one statement (PostgreSQL `statement_timeout`); 0 turns it off. */
  databaseStatementTimeoutMs: number;
  /** How long a request waits for a pool connection (and a new connection for its handshake) before failing (503). */
  databaseConnectTimeoutMs: number;
  /**
   * A single Redis server (`REDIS_URL`); empty when `redisClusterNodes` names a Redis Cluster instead. It may carry a
   * password: print `describeTarget(redisUrl)`, never the URL. Credentials and TLS for either: `RedisSecurity`.
   */
  redisUrl: string;
  /** Seed nodes of a Redis Cluster (`REDIS_CLUSTER_NODES`); empty for a single server. */
  redisClusterNodes: RedisNode[];
  /**
   * Put before every Redis key (`REDIS_KEY_PREFIX`), so several deployments (or test apps) can share one Redis or
   * Cluster, where logical databases do not exist. Never contains a hash tag: the key's own tag picks the slot.
   */
  redisKeyPrefix: string;
  /** A Redis command not answered within this many ms fails (no request waits on a dead Redis for long). */
  redisCommandTimeoutMs: number;
  redisConnectTimeoutMs: number;
  authProvider: AuthProviderKind;
  firebase: { projectId?: string; serviceAccount?: string };
  oidc: { issuer?: string; audience?: string; jwksUrl?: string };
  tokenCacheSize: number;
  serverConfigFile?: string;
  configCacheMs: number;
  githubWebhookSecret?: string;
  /** Captcha provider (reCAPTCHA-compatible verify endpoint). Without a secret, production refuses every captcha. */
  captcha: { verifyUrl: string; secret?: string };
  /** Outgoing mail (password resets): an SMTP URL such as smtps://user:pass@host:465. Without it mail is logged. */
  mail: { smtpUrl?: string; from: string };
  /** The chat platform accounts are linked with: a Discord-compatible OAuth2 provider and API. */
  chat: { authorizeUrl: string; apiUrl: string; clientId?: string; redirectUri?: string };
  bodyLimitBytes: number;
  trustProxy: boolean | number;
  corsOrigins: string[] | '*';
  logLevel: string;
  /** Human-readable log lines (pino-pretty, a dev dependency): `npm run dev` only. */
  logPretty: boolean;
  commitHash: string;
  rateLimit: { globalPerMinute: number; overrides: Record<string, { max?: number; windowMs?: number }> };
  /** Scheduled jobs (leaderboard rebuilds, rollovers) run in this process. Off in most tests. */
  jobsEnabled: boolean;
  /**
   * Where `GET /metrics` is served: on its own port (`port`, bound to `host`) and/or on the API port behind a
   * bearer `token`. With neither, the API port serves it only in dev mode (docs/security.md).
   */
  metrics: { port?: number; host: string; token?: string };
  /** Swagger UI and the OpenAPI document at `/docs`. */
  docsEnabled: boolean;
  /**
   * Account files (exports) are signed with this instance's Ed25519 key: `EXPORT_SIGNING_KEY` (PKCS#8, PEM or its
   * base64 DER), else a key made on first use and kept in the database; `INSTANCE_ID` names the instance beside its
   * public key (default: an id made on first use). docs/account-files.md.
   */
  accountFiles: { signingKey?: string; instanceId?: string };
  /**
   * Tribe (multiplayer): the socket server is always on the API port (`/socket.io`); `port` adds a listener of its own
   * (`TRIBE_PORT`, on `host`), for a client built to expect a separate address. `timings` shortens the room timers in
   * tests and the benchmark (never read from the environment).
   */
  tribe: { port?: number; timings?: Record<string, number> };
}

export interface RedisNode {
  host: string;
  port: number;
}

export class EnvError extends Error {}

/** Shortest accepted `METRICS_TOKEN`: it is compared in constant time, but must not be guessable either. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

type Source = Record<string, string | undefined>;

function int(src: Source, key: string, fallback: number, min = 0): number {
  const raw = src[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new EnvError(`${key} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

function bool(src: Source, key: string, fallback: boolean): boolean {
  const raw = src[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new EnvError(`${key} must be true or false (got "${src[key]}")`);
}

function str(src: Source, key: string): string | undefined {
  const raw = src[key]?.trim();
  return raw === undefined || raw === '' ? undefined : raw;
}

function trustProxy(src: Source): boolean | number {
  const raw = str(src, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return bool(src, 'TRUST_PROXY', false);
}

function corsOrigins(src: Source): string[] | '*' | undefined {
  const raw = str(src, 'CORS_ORIGINS');
  if (raw === undefined) return undefined;
  if (raw === '*') return '*';
  const origins = raw.split(',').map((o) => o.trim());
  // An origin is scheme://host[:port] exactly as browsers send it; a path or a typo would silently match nothing.
  const bad = origins.filter((o) => !/^https?:\/\/[^/\s]+$/.test(o));
  if (bad.length > 0)
    throw new EnvError(`CORS_ORIGINS must be * or a comma-separated list of origins (got "${bad[0]}")`);
  return origins;
}

/** `host:port,host:port`: the nodes a Redis Cluster client starts from (it discovers the rest itself). */
export function parseRedisClusterNodes(raw: string): RedisNode[] {
  const nodes = raw.split(',').map((entry) => {
    const match = /^\s*([^\s:]+|\[[0-9a-fA-F:]+\]):(\d{1,5})\s*$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65535)
      throw new EnvError(
        `REDIS_CLUSTER_NODES must be a comma-separated list of host:port (got "${entry.trim()}")`,
      );
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
  return nodes;
}

/** `INSTANCE_ID`: a short name other instances' operators see beside this instance's public key. */
function instanceId(src: Source): string | undefined {
  const raw = str(src, 'INSTANCE_ID');
  if (raw !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(raw))
    throw new EnvError('INSTANCE_ID must be 1-64 letters, digits, dots, underscores or hyphens');
  return raw;
}

function redisKeyPrefix(src: Source, fallback: string): string {
  const prefix = str(src, 'REDIS_KEY_PREFIX') ?? fallback;
  // A brace in the prefix would become the hash tag of every key and put all of them in one slot.
  if (/[{}\s]/.test(prefix)) throw new EnvError('REDIS_KEY_PREFIX must not contain braces or whitespace');
  return prefix;
}

function metricsToken(src: Source): string | undefined {
  const token = str(src, 'METRICS_TOKEN');
  if (token !== undefined && token.length < METRICS_TOKEN_MIN_LENGTH)
    throw new EnvError(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`);
  return token;
}

/** `TRIBE_PORT`: a port of its own for the Tribe socket server, different from the API's and the metrics'. */
function tribePort(src: Source, port: number, metricsPort: number | undefined): number | undefined {
  const raw = str(src, 'TRIBE_PORT');
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new EnvError(`TRIBE_PORT must be an integer from 1 to 65535 (got "${raw}")`);
  if (n === port) throw new EnvError(`TRIBE_PORT must differ from PORT (both are ${n})`);
  if (n === metricsPort) throw new EnvError(`TRIBE_PORT must differ from METRICS_PORT (both are ${n})`);
  return n;
}

function rateLimitOverrides(src: Source): AppEnv['rateLimit']['overrides'] {
  const raw = str(src, 'RATE_LIMIT_OVERRIDES');
  if (raw === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as AppEnv['rateLimit']['overrides'];
  } catch (e) {
    throw new EnvError(`RATE_LIMIT_OVERRIDES must be a JSON object: ${(e as Error).message}`);
  }
}

/**
 * Reads the environment. In production the stores and an identity provider are mandatory; every missing item is
 * named in one error so an operator fixes them in one go.
 */
export function loadEnv(src: Source = process.env, defaults: Partial<AppEnv> = {}): AppEnv {
  const modeRaw = str(src, 'MODE') ?? defaults.mode ?? V.MODE.default;
  if (modeRaw !== 'dev' && modeRaw !== 'production') {
    throw new EnvError(`MODE must be "dev" or "production" (got "${modeRaw}")`);
  }
  const mode: AppMode = modeRaw;
  const missing: string[] = [];

  const databaseUrl = str(src, 'DATABASE_URL') ?? defaults.databaseUrl;
  if (!databaseUrl) missing.push('DATABASE_URL (postgres://user:password@host:5432/db)');
  const clusterRaw = str(src, 'REDIS_CLUSTER_NODES');
  const redisClusterNodes = clusterRaw
    ? parseRedisClusterNodes(clusterRaw)
    : (defaults.redisClusterNodes ?? []);
  // Both at once would leave the reader guessing which Redis the service writes to: refuse rather than pick one.
  if (clusterRaw && str(src, 'REDIS_URL'))
    throw new EnvError(
      'Set either REDIS_URL (one server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
    );
  const redisUrl = redisClusterNodes.length > 0 ? '' : (str(src, 'REDIS_URL') ?? defaults.redisUrl ?? '');
  if (redisClusterNodes.length === 0 && !redisUrl)
    missing.push('REDIS_URL (redis://host:6379) or REDIS_CLUSTER_NODES (host:port,host:port)');

  const providerRaw =
    str(src, 'AUTH_PROVIDER') ?? defaults.authProvider ?? (mode === 'dev' ? 'none' : undefined);
  let authProvider: AuthProviderKind = 'none';
  const firebase = {
    projectId: str(src, 'FIREBASE_PROJECT_ID') ?? defaults.firebase?.projectId,
    serviceAccount: str(src, 'FIREBASE_SERVICE_ACCOUNT') ?? defaults.firebase?.serviceAccount,
  };
  const oidc = {
    issuer: str(src, 'OIDC_ISSUER') ?? defaults.oidc?.issuer,
    audience: str(src, 'OIDC_AUDIENCE') ?? defaults.oidc?.audience,
    jwksUrl: str(src, 'OIDC_JWKS_URL') ?? defaults.oidc?.jwksUrl,
  };
  if (providerRaw === undefined) {
    missing.push('AUTH_PROVIDER ("firebase" or "oidc") with its settings');
  } else if (providerRaw === 'firebase') {
    authProvider = 'firebase';
    if (!firebase.projectId) missing.push('FIREBASE_PROJECT_ID');
  } else if (providerRaw === 'oidc') {
    authProvider = 'oidc';
    if (!oidc.issuer) missing.push('OIDC_ISSUER');
    if (!oidc.audience) missing.push('OIDC_AUDIENCE');
    if (!oidc.jwksUrl) missing.push('OIDC_JWKS_URL');
  } else if (providerRaw === 'none' && (mode === 'dev' || defaults.authProvider === 'none')) {
    // Dev mode, or a tool that verifies no tokens (the operator CLI).
    authProvider = 'none';
  } else {
    throw new EnvError(
      `AUTH_PROVIDER must be "firebase" or "oidc"${mode === 'dev' ? ' or "none"' : ''} (got "${providerRaw}")`,
    );
  }

  if (missing.length > 0) {
    throw new EnvError(`Missing required configuration:\n  - ${missing.join('\n  - ')}`);
  }

  const cors = corsOrigins(src);
  const host = str(src, 'HOST') ?? defaults.host ?? V.HOST.default;
  const port = int(src, 'PORT', defaults.port ?? V.PORT.default, V.PORT.min);
  const metricsPort = src.METRICS_PORT
    ? int(src, 'METRICS_PORT', 0, V.METRICS_PORT.min)
    : defaults.metrics?.port;
  return {
    mode,
    port,
    host,
    databaseUrl: databaseUrl as string,
    databasePoolMax: int(
      src,
      'DATABASE_POOL_MAX',
      defaults.databasePoolMax ?? V.DATABASE_POOL_MAX.default,
      V.DATABASE_POOL_MAX.min,
    ),
    databaseStatementTimeoutMs: int(
      src,
      'DATABASE_STATEMENT_TIMEOUT_MS',
      defaults.databaseStatementTimeoutMs ?? V.DATABASE_STATEMENT_TIMEOUT_MS.default,
      V.DATABASE_STATEMENT_TIMEOUT_MS.min,
    ),
    databaseConnectTimeoutMs: int(
      src,
      'DATABASE_CONNECT_TIMEOUT_MS',
      defaults.databaseConnectTimeoutMs ?? V.DATABASE_CONNECT_TIMEOUT_MS.default,
      V.DATABASE_CONNECT_TIMEOUT_MS.min,
    ),
    redisUrl,
    redisClusterNodes,
    ...readRedisSecurity(src, redisUrl, defaults, (message) => {
      throw new EnvError(message);
    }),
    redisKeyPrefix: redisKeyPrefix(src, defaults.redisKeyPrefix ?? V.REDIS_KEY_PREFIX.default),
    redisCommandTimeoutMs: int(
      src,
      'REDIS_COMMAND_TIMEOUT_MS',
      defaults.redisCommandTimeoutMs ?? V.REDIS_COMMAND_TIMEOUT_MS.default,
      V.REDIS_COMMAND_TIMEOUT_MS.min,
    ),
    redisConnectTimeoutMs: int(
      src,
      'REDIS_CONNECT_TIMEOUT_MS',
      defaults.redisConnectTimeoutMs ?? V.REDIS_CONNECT_TIMEOUT_MS.default,
      V.REDIS_CONNECT_TIMEOUT_MS.min,
    ),
    authProvider,
    firebase,
    oidc,
    tokenCacheSize: int(
      src,
      'TOKEN_CACHE_SIZE',
      defaults.tokenCacheSize ?? V.TOKEN_CACHE_SIZE.default,
      V.TOKEN_CACHE_SIZE.min,
    ),
    serverConfigFile: str(src, 'SERVER_CONFIG_FILE') ?? defaults.serverConfigFile,
    configCacheMs: int(
      src,
      'CONFIG_CACHE_MS',
      defaults.configCacheMs ?? V.CONFIG_CACHE_MS.default,
      V.CONFIG_CACHE_MS.min,
    ),
    githubWebhookSecret: str(src, 'GITHUB_WEBHOOK_SECRET') ?? defaults.githubWebhookSecret,
    captcha: {
      verifyUrl:
        str(src, 'CAPTCHA_VERIFY_URL') ?? defaults.captcha?.verifyUrl ?? V.CAPTCHA_VERIFY_URL.default,
      secret: str(src, 'CAPTCHA_SECRET') ?? defaults.captcha?.secret,
    },
    mail: {
      smtpUrl: str(src, 'SMTP_URL') ?? defaults.mail?.smtpUrl,
      from: str(src, 'MAIL_FROM') ?? defaults.mail?.from ?? V.MAIL_FROM.default,
    },
    chat: {
      authorizeUrl:
        str(src, 'CHAT_AUTHORIZE_URL') ?? defaults.chat?.authorizeUrl ?? V.CHAT_AUTHORIZE_URL.default,
      apiUrl: str(src, 'CHAT_API_URL') ?? defaults.chat?.apiUrl ?? V.CHAT_API_URL.default,
      clientId: str(src, 'CHAT_CLIENT_ID') ?? defaults.chat?.clientId,
      redirectUri: str(src, 'CHAT_REDIRECT_URI') ?? defaults.chat?.redirectUri,
    },
    bodyLimitBytes: int(
      src,
      'BODY_LIMIT_BYTES',
      defaults.bodyLimitBytes ?? V.BODY_LIMIT_BYTES.default,
      V.BODY_LIMIT_BYTES.min,
    ),
    trustProxy:
      src.TRUST_PROXY !== undefined ? trustProxy(src) : (defaults.trustProxy ?? V.TRUST_PROXY.default),
    corsOrigins: cors ?? defaults.corsOrigins ?? V.CORS_ORIGINS.default,
    logLevel: str(src, 'LOG_LEVEL') ?? defaults.logLevel ?? V.LOG_LEVEL.default,
    logPretty: bool(src, 'LOG_PRETTY', defaults.logPretty ?? V.LOG_PRETTY.default),
    commitHash: str(src, 'COMMIT_HASH') ?? defaults.commitHash ?? V.COMMIT_HASH.default,
    rateLimit: {
      globalPerMinute: int(
        src,
        'RATE_LIMIT_GLOBAL_PER_MINUTE',
        defaults.rateLimit?.globalPerMinute ?? V.RATE_LIMIT_GLOBAL_PER_MINUTE.default,
        V.RATE_LIMIT_GLOBAL_PER_MINUTE.min,
      ),
      overrides: src.RATE_LIMIT_OVERRIDES ? rateLimitOverrides(src) : (defaults.rateLimit?.overrides ?? {}),
    },
    jobsEnabled: bool(src, 'JOBS_ENABLED', defaults.jobsEnabled ?? V.JOBS_ENABLED.default),
    metrics: {
      port: metricsPort,
      host: str(src, 'METRICS_HOST') ?? defaults.metrics?.host ?? host,
      token: metricsToken(src) ?? defaults.metrics?.token,
    },
    docsEnabled: bool(src, 'DOCS_ENABLED', defaults.docsEnabled ?? V.DOCS_ENABLED.default),
    accountFiles: {
      signingKey: src.EXPORT_SIGNING_KEY?.trim() || defaults.accountFiles?.signingKey,
      instanceId: instanceId(src) ?? defaults.accountFiles?.instanceId,
    },
    tribe: {
      port: tribePort(src, port, metricsPort) ?? defaults.tribe?.port,
      ...(defaults.tribe?.timings ? { timings: defaults.tribe.timings } : {}),
    },
  };
}

export const APP_ENV = Symbol('APP_ENV');
