import IORedis, { Cluster, type ClusterNode, type ClusterOptions, type Command } from 'ioredis';
import type { RedisNode, RedisSecurity } from '../../config/env';
import { connectionOptionsOf } from './redis-security';
import { REDIS_SCRIPTS } from './scripts';

export const REDIS = Symbol('REDIS');
/**
 * The shared client: one server or a Redis Cluster. Both speak the same commands (and our scripts); callers use only
 * those, never logical databases, KEYS/SCAN or MULTI across keys, so either works behind this one type.
 */
export type Redis = IORedis | Cluster;

/** Where Redis is: a single server's URL, or the seed nodes of a Cluster. */
export interface RedisTarget {
  url?: string;
  clusterNodes?: RedisNode[];
  /** Put before every key (commands and scripts' KEYS); see `AppEnv.redisKeyPrefix`. */
  keyPrefix?: string;
  /** Credentials and TLS of every connection (those a URL carries itself stay in it). */
  security?: RedisSecurity;
}

export interface RedisClientOptions {
  /** A command not answered within this many ms fails (queued while reconnecting included). */
  commandTimeoutMs?: number;
  /** A connection attempt not established within this many ms is abandoned and retried. */
  connectTimeoutMs?: number;
}

/** Longest pause between reconnection attempts: the client notices a returning Redis within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

const reconnectDelay = (attempt: number) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS);

/**
 * A Cluster client whose every command is bounded by the command timeout, queued ones included. ioredis applies
 * `commandTimeout` only inside a node's connection: while the whole cluster is unreachable a command waits in the
 * Cluster's own offline queue, unbounded, and a request would hang until Redis returns (the single-server client
 * fails it after one reconnect). Its duplicates (the pub/sub subscribers) keep the bound.
 */
class BoundedCluster extends Cluster {
  constructor(
    nodes: ClusterNode[],
    options: ClusterOptions,
    private readonly commandTimeoutMs: number,
  ) {
    super(nodes, options);
  }

  override sendCommand(
    command: Command,
    stream?: Parameters<Cluster['sendCommand']>[1],
    node?: unknown,
  ): unknown {
    command.setTimeout(this.commandTimeoutMs);
    return super.sendCommand(command, stream, node);
  }

  override duplicate(overrideStartupNodes?: ClusterNode[], overrideOptions: ClusterOptions = {}): Cluster {
    return new BoundedCluster(
      overrideStartupNodes ?? (this as unknown as { startupNodes: ClusterNode[] }).startupNodes.slice(0),
      { ...this.options, ...overrideOptions },
      this.commandTimeoutMs,
    );
  }
}

/**
 * One ioredis client per process with every Lua script registered through `defineCommand` (EVALSHA with an
 * automatic EVAL fallback after a script cache flush). Auto-pipelining batches concurrent commands into one write
 * (single server only, see below).
 *
 * Outage behaviour: commands sent while disconnected wait in the offline queue only for a short reconnect (a blip),
 * never for long — `commandTimeout` bounds every command and `maxRetriesPerRequest: 1` flushes the queue after one
 * failed reconnect — so requests answer fast (degraded or 503) instead of hanging. Callers that can degrade ask
 * `RedisHealth` first and skip Redis altogether while it is known to be down.
 *
 * With cluster nodes, an ioredis `Cluster` with the same per-node settings: it learns the slot map from the seeds,
 * follows MOVED/ASK redirections and reconnects by itself. Every multi-key script gets keys sharing one hash tag
 * (`keys.ts`), so each runs on one node.
 */
export function createRedis(url: string, options?: RedisClientOptions): IORedis;
export function createRedis(target: RedisTarget, options?: RedisClientOptions): Redis;
export function createRedis(target: string | RedisTarget, options: RedisClientOptions = {}): Redis {
  const { url, clusterNodes, keyPrefix, security } = typeof target === 'string' ? { url: target } : target;
  const nodeOptions = {
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    ...connectionOptionsOf(security ?? {}),
  };
  // ioredis puts the prefix before the keys of commands and of scripts' KEYS (not before pub/sub channels, which
  // are shared); on a Cluster the Cluster object does it, its node connections must not do it a second time.
  const prefix = keyPrefix ? { keyPrefix } : {};
  let client: Redis;
  if (clusterNodes && clusterNodes.length > 0) {
    client = new BoundedCluster(
      clusterNodes,
      {
        // Not on a Cluster: with it, ioredis keeps sending EVALSHA to a master that restarted with an empty script
        // cache and the calls fail with NOSCRIPT instead of falling back to EVAL (test/e2e/cluster's node outage).
        enableAutoPipelining: false,
        clusterRetryStrategy: reconnectDelay,
        ...prefix,
        redisOptions: nodeOptions,
        // With TLS each node's certificate is checked against the name it is reached by: keep the seeds' host names
        // rather than the addresses they resolve to (a managed service's certificates name hosts, not addresses).
        ...(nodeOptions.tls ? { dnsLookup: keepHostName } : {}),
        lazyConnect: false,
      },
      nodeOptions.commandTimeout,
    );
  } else {
    if (!url) throw new Error('createRedis: neither a URL nor cluster nodes');
    client = new IORedis(url, {
      ...nodeOptions,
      ...prefix,
      enableAutoPipelining: true,
      retryStrategy: reconnectDelay,
      lazyConnect: false,
    });
  }
  for (const script of REDIS_SCRIPTS) {
    client.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  }
  // Connection errors surface on the commands that fail; the client reconnects by itself.
  client.on('error', () => undefined);
  return client;
}

/** A Cluster's `dnsLookup` that connects by the name given (the TLS socket resolves it), so certificates match it. */
export function keepHostName(address: string, callback: (err: Error | null, address: string) => void): void {
  callback(null, address);
}

/** The Redis target an `AppEnv` names. */
export function redisTargetOf(
  env: RedisSecurity & {
    redisUrl: string;
    redisClusterNodes: RedisNode[];
    redisKeyPrefix: string;
  },
): RedisTarget {
  return {
    url: env.redisUrl,
    clusterNodes: env.redisClusterNodes,
    keyPrefix: env.redisKeyPrefix,
    security: { redisUsername: env.redisUsername, redisPassword: env.redisPassword, redisTls: env.redisTls },
  };
}
