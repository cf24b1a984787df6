import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnv } from './env';
import { ENV_VARIABLES } from './env-variables';

const SRC = join(__dirname, '..');

/** The variables a source text reads: through loadEnv's readers, `src.X`, `source.X` or `process.env.X`. */
function variablesRead(text: string): string[] {
  const names = [
    ...text.matchAll(/\b(?:str|int|bool)\(\s*src,\s*'([A-Z][A-Z0-9_]*)'/g),
    ...text.matchAll(/\b(?:src|source|process\.env)\.([A-Z][A-Z0-9_]*)\b/g),
    ...text.matchAll(/\b(?:src|source|process\.env)\[\s*'([A-Z][A-Z0-9_]*)'\s*\]/g),
  ].map((m) => m[1]!);
  return [...new Set(names)];
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('ENV_VARIABLES', () => {
  const read = new Set(sources(SRC).flatMap((file) => variablesRead(readFileSync(file, 'utf8'))));

  it('lists every variable the code under src/ reads', () => {
    expect([...read].filter((name) => !(name in ENV_VARIABLES)).sort()).toEqual([]);
  });

  it('lists only variables the code reads', () => {
    expect(Object.keys(ENV_VARIABLES).filter((name) => !read.has(name))).toEqual([]);
  });

  it('finds variables however they are read', () => {
    expect(
      variablesRead(
        "int(\n  src,\n  'PORT', 1); str(src, 'HOST'); src.TRUST_PROXY; process.env.DEV_DATA_DIR; source['MODE']; src.lower",
      ).sort(),
    ).toEqual(['DEV_DATA_DIR', 'HOST', 'MODE', 'PORT', 'TRUST_PROXY']);
  });

  it('gives loadEnv its defaults and lower bounds', () => {
    const env = loadEnv({ MODE: 'dev', DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://y' });
    expect(env).toMatchObject({
      port: ENV_VARIABLES.PORT.default,
      host: ENV_VARIABLES.HOST.default,
      databasePoolMax: ENV_VARIABLES.DATABASE_POOL_MAX.default,
      bodyLimitBytes: ENV_VARIABLES.BODY_LIMIT_BYTES.default,
      tokenCacheSize: ENV_VARIABLES.TOKEN_CACHE_SIZE.default,
      captcha: { verifyUrl: ENV_VARIABLES.CAPTCHA_VERIFY_URL.default },
      mail: { from: ENV_VARIABLES.MAIL_FROM.default },
      commitHash: ENV_VARIABLES.COMMIT_HASH.default,
    });
    expect(() =>
      loadEnv({
        MODE: 'dev',
        DATABASE_URL: 'postgres://x',
        REDIS_URL: 'redis://y',
        BODY_LIMIT_BYTES: '1023',
      }),
    ).toThrow(`BODY_LIMIT_BYTES must be an integer >= ${ENV_VARIABLES.BODY_LIMIT_BYTES.min}`);
  });

  it('describes every variable in a sentence of its own, and says when a required one is needed', () => {
    const entries = Object.entries(ENV_VARIABLES) as [string, { description: string; required?: string }][];
    expect(entries.filter(([, v]) => v.description.length < 10 || v.description.endsWith('.'))).toEqual([]);
    expect(entries.filter(([, v]) => v.required !== undefined && v.required.length === 0)).toEqual([]);
  });
});
