import { resolve } from 'node:path';
import { startDevStack, type DevStack } from '../../src/infra/embedded/dev-stack';

/** Where the benchmark keeps its PostgreSQL cluster and Redis files: apart from the dev data (`.data`). */
export function benchDataDir(): string {
  return resolve(process.env.BENCH_DATA_DIR ?? '.bench-data');
}

/**
 * The stores the benchmark runs against: DATABASE_URL and REDIS_URL when both are set (an operator's own servers),
 * otherwise the embedded PostgreSQL and a redis-server in the bench data directory (attached to when already running).
 * PostgreSQL keeps its durable defaults (fsync on), as in production.
 */
export async function startBenchStack(log: (line: string) => void): Promise<DevStack> {
  if (process.env.DATABASE_URL && process.env.REDIS_URL) {
    return { databaseUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL, stop: async () => {} };
  }
  const dataDir = benchDataDir();
  log(`stores: embedded PostgreSQL and redis-server in ${dataDir}`);
  // In process groups of their own: the runner stops them after its servers, on Ctrl-C too (bench/run.ts).
  return startDevStack({ dataDir, redisUrl: process.env.REDIS_URL, publish: true, ownProcessGroup: true });
}
