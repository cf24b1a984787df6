import { loadEnv, type AppEnv } from '../../src/config/env';
import {
  startRedisCluster,
  startRedisServer,
  type RedisClusterHandle,
  type RedisServerHandle,
} from '../../src/infra/embedded/redis-server';
import { makeTestCertificates, type TestCertificates } from './tls-certificates';

/** The default user's password and an ACL user of every secured server (throwaway values). */
export const DEFAULT_PASSWORD = 'default-secret-4d1f';
export const ACL_USER = { name: 'typing-app', password: 'acl-secret-93ab' };

/**
 * A managed Redis, locally: a single TLS-only server (password, ACL user; no client certificates) and a 3-master
 * Cluster (TLS on clients, bus and replication; password, ACL user; client certificates required), signed by a
 * throwaway CA. About two seconds to start; `stop()` stops both and deletes the certificates.
 */
export interface SecuredRedis {
  certs: TestCertificates;
  server: RedisServerHandle;
  cluster: RedisClusterHandle;
  stop(): Promise<void>;
}

export async function startSecuredRedis(): Promise<SecuredRedis> {
  const certs = await makeTestCertificates();
  const security = { password: DEFAULT_PASSWORD, users: [ACL_USER] };
  const tls = { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile, caFile: certs.caFile };
  const started = await Promise.allSettled([
    startRedisServer({ ...security, tls }),
    startRedisCluster({
      masters: 3,
      dir: `${certs.dir}/cluster`,
      security: { ...security, tls: { ...tls, authClients: true } },
    }),
  ]);
  const [server, cluster] = started;
  const stop = async () => {
    await Promise.allSettled([
      server.status === 'fulfilled' ? server.value.stop() : undefined,
      cluster.status === 'fulfilled' ? cluster.value.stop() : undefined,
    ]);
    await certs.remove();
  };
  if (server.status === 'rejected' || cluster.status === 'rejected') {
    await stop();
    throw server.status === 'rejected' ? server.reason : (cluster as PromiseRejectedResult).reason;
  }
  return { certs, server: server.value, cluster: cluster.value, stop };
}

/** host:port of a server (for URLs). */
export const hostPort = (server: { port: number }) => `127.0.0.1:${server.port}`;

/** The Redis part of an `AppEnv` that these environment variables give, as `loadEnv` reads them at start. */
export function redisEnvFrom(
  variables: Record<string, string>,
): Pick<
  AppEnv,
  'redisUrl' | 'redisClusterNodes' | 'redisUsername' | 'redisPassword' | 'redisTls' | 'redisKeyPrefix'
> {
  const env = loadEnv({ MODE: 'dev', DATABASE_URL: 'postgres://unused', ...variables });
  return {
    redisUrl: env.redisUrl,
    redisClusterNodes: env.redisClusterNodes,
    redisUsername: env.redisUsername,
    redisPassword: env.redisPassword,
    redisTls: env.redisTls,
    redisKeyPrefix: env.redisKeyPrefix,
  };
}
