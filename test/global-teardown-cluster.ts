import { rmSync } from 'node:fs';

export default async function globalTeardownCluster(): Promise<void> {
  const stores = globalThis.__TEST_REDIS_CLUSTER__;
  if (!stores) return;
  await stores.cluster.stop();
  rmSync(stores.dir, { recursive: true, force: true });
}
