import { rmSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  const stores = globalThis.__TEST_STORES__;
  if (!stores) return;
  await Promise.allSettled([stores.redis.stop(), stores.postgres.stop()]);
  rmSync(stores.dir, { recursive: true, force: true });
}
