import { createApp } from './app.factory';
import { EnvError, loadEnv } from './config/env';
import { createDatabase } from './infra/database/database';
import { migrateToLatest } from './infra/database/migrator';

/** Production entry: configuration from the environment only (see README "Configuration"). */
async function main(): Promise<void> {
  let env;
  try {
    env = loadEnv(process.env);
  } catch (e) {
    if (e instanceof EnvError) {
      console.error(`Cannot start: ${e.message}\nSee README.md, section "Configuration".`);
      process.exit(1);
    }
    throw e;
  }
  if (process.env.MIGRATE_ON_START === 'true') {
    const db = createDatabase({ url: env.databaseUrl, poolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
  }
  const app = await createApp({ env });
  await app.listen(env.port, env.host);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
