import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';

let redisCounter = 0;

export interface TestStores {
  databaseUrl: string;
  redisUrl: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests through jest (its global setup starts the stores)`);
  return value;
}

/**
 * A fresh database copied from the migrated template, and a flushed Redis logical database of its own.
 * Several app instances may share one `TestStores` (e.g. to prove two replicas run a job once).
 */
export async function createTestStores(): Promise<TestStores> {
  const adminUrl = required('TEST_PG_ADMIN_URL');
  const template = required('TEST_PG_TEMPLATE');
  const redisBase = required('TEST_REDIS_URL');
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');

  // Module state restarts with every test file, so names must not depend on a counter.
  const name = `t_${randomBytes(8).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }

  const index = ((worker - 1) * 64 + (redisCounter++ % 64)) % 1024;
  const redisUrl = `${redisBase}/${index}`;
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  await redis.quit();

  return { databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`), redisUrl };
}
