/**
 * Every environment variable the service reads, with its default and what it is for: the one list that
 * `loadEnv` takes its defaults and lower bounds from, and that `npm run docs:configuration` turns into the table of
 * docs/configuration.md (a unit test fails when the committed table differs). A variable read anywhere under `src/`
 * must be listed here (env-variables.spec.ts checks it).
 */
export interface EnvVariable {
  /** When the variable must be set (shown in the table's Required column); absent: optional. */
  required?: string;
  /** The value used when the variable is unset or empty. */
  default?: string | number | boolean;
  /** What happens when it is unset, where there is no plain default value. */
  otherwise?: string;
  /** The smallest integer accepted. */
  min?: number;
  /** Read by an entry point rather than by `loadEnv` (`src/main.ts`, `src/dev.ts`). */
  readBy?: string;
  description: string;
}

export const ENV_VARIABLES = {
  MODE: {
    default: 'production',
    description:
      '`production` or `dev`. Dev mode accepts `Authorization: Uid <uid>|<email>` as anyone, passes every captcha, ' +
      'multiplies rate limits by 100 and ranks users below `minTimeTyping`: never expose it',
  },
  PORT: { default: 5005, min: 0, description: 'port the API listens on' },
  HOST: { default: '127.0.0.1', description: 'address the API listens on (`0.0.0.0` in a container)' },
  DATABASE_URL: {
    required: 'yes',
    description: 'PostgreSQL 15 or later: `postgres://user:password@host:5432/db`',
  },
  DATABASE_POOL_MAX: { default: 20, min: 1, description: 'PostgreSQL connections per process' },
  DATABASE_STATEMENT_TIMEOUT_MS: {
    default: 60_000,
    min: 0,
    description: 'PostgreSQL `statement_timeout` of the API connections; `0`: none',
  },
  DATABASE_CONNECT_TIMEOUT_MS: {
    default: 10_000,
    min: 1,
    description: 'longest wait for a pool connection (and a new connection for its handshake); then 503',
  },
  REDIS_URL: {
    required: 'yes, or `REDIS_CLUSTER_NODES`',
    description:
      'one Redis server: `redis://host:6379`, `rediss://user:password@host:6380` for TLS. Not with `REDIS_CLUSTER_NODES`',
  },
  REDIS_CLUSTER_NODES: {
    required: 'instead of `REDIS_URL`',
    description: 'seed nodes of a Redis Cluster, `host:port,host:port` (the client discovers the rest)',
  },
  REDIS_KEY_PREFIX: {
    default: '',
    description:
      'put before every Redis key, so several deployments can share one Redis or Cluster; no braces or spaces',
  },
  REDIS_COMMAND_TIMEOUT_MS: {
    default: 2_000,
    min: 1,
    description: 'a Redis command unanswered this long fails (degraded mode rather than a hung request)',
  },
  REDIS_CONNECT_TIMEOUT_MS: {
    default: 2_000,
    min: 1,
    description: 'timeout of one Redis connection attempt',
  },
  REDIS_USERNAME: {
    otherwise: "Redis's default user",
    description:
      'ACL user of every Redis connection (needs `REDIS_PASSWORD`); not when `REDIS_URL` names one',
  },
  REDIS_PASSWORD: {
    otherwise: 'no password',
    description: 'password of every Redis connection; not when `REDIS_URL` carries one',
  },
  REDIS_TLS: {
    otherwise: 'the scheme of `REDIS_URL`',
    description:
      '`true`: TLS to the Cluster nodes. With `REDIS_URL` it may only repeat its scheme (`rediss://`)',
  },
  REDIS_TLS_CA_FILE: {
    otherwise: 'the system CAs',
    description: 'PEM file of the CA that signed the Redis certificates (a private CA)',
  },
  REDIS_TLS_SERVERNAME: {
    otherwise: 'the host connected to',
    description: 'name the Redis certificates carry, when the nodes are reached by address',
  },
  REDIS_TLS_CERT_FILE: {
    description: 'client certificate (PEM), for a Redis that requires mutual TLS; with `REDIS_TLS_KEY_FILE`',
  },
  REDIS_TLS_KEY_FILE: { description: 'key of the client certificate (PEM)' },
  AUTH_PROVIDER: {
    required: 'yes (production)',
    otherwise: '`none` in dev mode',
    description: '`firebase` or `oidc`: who issues the ID tokens of `Authorization: Bearer`',
  },
  FIREBASE_PROJECT_ID: {
    required: 'with `firebase`',
    description: 'Firebase project whose ID tokens are accepted',
  },
  FIREBASE_SERVICE_ACCOUNT: {
    otherwise: 'application default credentials',
    description: 'Firebase service account: its JSON inline, or the path of a file holding it',
  },
  OIDC_ISSUER: { required: 'with `oidc`', description: 'issuer (`iss`) of the accepted ID tokens' },
  OIDC_AUDIENCE: { required: 'with `oidc`', description: 'audience (`aud`) of the accepted ID tokens' },
  OIDC_JWKS_URL: { required: 'with `oidc`', description: "URL of the issuer's signing keys (JWKS)" },
  TOKEN_CACHE_SIZE: {
    default: 20_000,
    min: 0,
    description: 'verified ID tokens cached per process; `0`: none',
  },
  SERVER_CONFIG_FILE: {
    description: 'JSON file holding a deep partial of the server configuration, merged into it at start',
  },
  CONFIG_CACHE_MS: {
    default: 5_000,
    min: 0,
    description:
      'how long a process caches the server configuration (a change is also announced to every replica)',
  },
  GITHUB_WEBHOOK_SECRET: {
    otherwise: 'none',
    description:
      'HMAC secret of `POST /webhooks/githubRelease`; without it every delivery is answered 500 ' +
      '`Missing Github Webhook Secret`, as on the original',
  },
  CAPTCHA_VERIFY_URL: {
    default: 'https://www.google.com/recaptcha/api/siteverify',
    description: "captcha provider's verify endpoint (reCAPTCHA-compatible: hCaptcha, Turnstile)",
  },
  CAPTCHA_SECRET: {
    otherwise: 'none',
    description:
      "the captcha provider's secret key; without it every captcha is refused and sign-up cannot succeed",
  },
  SMTP_URL: {
    otherwise: 'none: mail is logged',
    description:
      'SMTP relay of outgoing mail (password resets, verification): `smtps://user:password@host:465`',
  },
  MAIL_FROM: { default: 'Typing platform <no-reply@localhost>', description: 'sender of outgoing mail' },
  CHAT_AUTHORIZE_URL: {
    default: 'https://discord.com/oauth2/authorize',
    description: 'authorize page of the Discord-compatible chat platform accounts are linked with',
  },
  CHAT_API_URL: { default: 'https://discord.com/api', description: "that chat platform's API base URL" },
  CHAT_CLIENT_ID: { required: 'for the chat link', description: 'OAuth2 client id at the chat platform' },
  CHAT_REDIRECT_URI: { required: 'for the chat link', description: 'OAuth2 redirect URI registered there' },
  BODY_LIMIT_BYTES: { default: 102_400, min: 1024, description: 'largest request body; 413 beyond' },
  TRUST_PROXY: {
    default: false,
    description:
      '`true` or the number of proxies in front: the client IP is then read from `X-Forwarded-For` (rate limits, ' +
      'bad-auth counters, logs), and HSTS is sent',
  },
  CORS_ORIGINS: {
    default: '*',
    description: 'comma-separated origins allowed by CORS (`https://app.example`); `*` is for development',
  },
  LOG_LEVEL: { default: 'info', description: 'pino log level' },
  LOG_PRETTY: { default: false, description: 'human-readable log lines (pino-pretty, a dev dependency)' },
  COMMIT_HASH: { default: 'NO_HASH', description: 'shown as the version by `GET /`' },
  RATE_LIMIT_GLOBAL_PER_MINUTE: {
    default: 120,
    min: 1,
    description: 'requests per minute per IP, all routes',
  },
  RATE_LIMIT_OVERRIDES: {
    description:
      'JSON object overriding rate-limit classes, e.g. `{"resultsAdd":{"max":1000,"windowMs":86400000}}`',
  },
  JOBS_ENABLED: {
    default: true,
    description: 'run the scheduled jobs in this process (each runs once per period across replicas)',
  },
  METRICS_PORT: {
    otherwise: 'none',
    min: 0,
    description:
      'serve `/metrics` on this port only (for a scraper on a private network); without it and without ' +
      '`METRICS_TOKEN`, production answers 404 on `/metrics`',
  },
  METRICS_HOST: { otherwise: 'the value of `HOST`', description: 'address of the metrics port' },
  METRICS_TOKEN: {
    otherwise: 'none',
    description:
      'bearer token (16 characters or more) that `GET /metrics` requires, compared in constant time',
  },
  DOCS_ENABLED: { default: true, description: 'Swagger UI and the OpenAPI document at `/docs`' },
  TRIBE_PORT: {
    otherwise: 'none',
    min: 1,
    description:
      'a port of its own (on `HOST`) for the Tribe socket server, which is always on the API port too (path ' +
      '`/socket.io`); not `PORT` or `METRICS_PORT` (docs/tribe.md)',
  },
  EXPORT_SIGNING_KEY: {
    otherwise: 'a key made on first use and kept in the database',
    description:
      "the instance's Ed25519 private key for signing account exports (PEM or base64 DER); a value that is not " +
      'one stops the boot (docs/account-files.md)',
  },
  INSTANCE_ID: {
    otherwise: 'an id made with the key and kept in the database',
    description: "this instance's id, published with its public key (1-64 letters, digits, `.`, `_`, `-`)",
  },
  MIGRATE_ON_START: {
    default: false,
    readBy: 'src/main.ts',
    description: '`true`: apply pending migrations at start (safe with several replicas: a migration lock)',
  },
  SHUTDOWN_GRACE_MS: {
    default: 5_000,
    min: 0,
    readBy: 'src/main.ts',
    description: 'on SIGTERM or SIGINT, how long `/readyz` answers 503 before the process stops accepting',
  },
  DEV_DATA_DIR: {
    default: '.data',
    readBy: 'src/dev.ts',
    description: 'where `npm run dev` (and the CLI with `--dev`) keeps its embedded PostgreSQL',
  },
} as const satisfies Record<string, EnvVariable>;

export type EnvVariableName = keyof typeof ENV_VARIABLES;
