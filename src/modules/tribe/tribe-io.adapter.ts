import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { Logger, type INestApplication } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createShardedAdapter } from '@socket.io/redis-adapter';
import type { Cluster, default as IORedis } from 'ioredis';
import { Server, type ServerOptions } from 'socket.io';
import type { AppEnv } from '../../config/env';
import { createRedis, redisTargetOf, type Redis } from '../../infra/redis/redis';
import { ReadinessService } from '../status/readiness.service';
import { clientAddress } from './client-address';
import { TRIBE_LIMITS } from './domain/limits';
import type { TribeServer } from './tribe-connection';
import { TribeHub } from './tribe-hub';

type Engine = Server['engine'];

/**
 * The adapter calls some of its client's commands without handling their failure (a subscription while a Redis
 * node is down): an unhandled rejection would end the process. Those failures are logged here instead; the client
 * subscribes again by itself once it reconnects.
 */
function handleRejections(client: Redis, methods: string[], logger: Logger): void {
  const commands = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const method of methods) {
    const original = commands[method]!.bind(client);
    commands[method] = (...args: unknown[]) => {
      const pending = original(...args);
      pending.catch((e: Error) =>
        logger.warn({ command: method, err: e.message }, 'Redis subscription failed'),
      );
      return pending;
    };
  }
}

/**
 * Pub/sub channels are not per database or key prefix: two deployments sharing a Redis (or a Redis Cluster, or two
 * logical databases of one server) must not hear each other's rooms, so the channels carry the key prefix and the
 * database number.
 */
export function channelPrefix(env: Pick<AppEnv, 'redisUrl' | 'redisKeyPrefix'>): string {
  let database = '';
  try {
    const path = env.redisUrl ? new URL(env.redisUrl).pathname.replace(/^\//, '') : '';
    if (/^\d+$/.test(path) && path !== '0') database = `:db${path}`;
  } catch {
    // Not a URL (a cluster): no database number.
  }
  return `${env.redisKeyPrefix}tribe${database}`;
}

/**
 * The Tribe socket server: socket.io on the API's own HTTP server (path `/socket.io`) and, with `TRIBE_PORT`, on a
 * listener of its own; rooms shared with every replica through Redis sharded pub/sub (`SPUBLISH`, Redis 7, which a
 * Redis Cluster spreads over its shards); CORS as the HTTP API's (`CORS_ORIGINS`). Connections past the per-address
 * and per-replica caps, or while the replica drains, are refused before any socket.io work is done for them.
 */
export class TribeIoAdapter extends IoAdapter {
  private readonly engines: Engine[] = [];
  private readonly perAddress = new Map<string, number>();
  private open = 0;
  private ownListener: HttpServer | null = null;
  private pub: Redis | null = null;
  private sub: Redis | null = null;
  private closed = false;
  private readonly transportLog = new Logger('TribeTransport');

  constructor(
    private readonly app: INestApplication,
    private readonly env: AppEnv,
  ) {
    super(app);
  }

  override create(_port: number, options?: ServerOptions & { namespace?: string }): TribeServer {
    const { namespace: _namespace, ...rest } = options ?? {};
    const io = new Server({
      ...rest,
      path: '/socket.io',
      serveClient: false,
      cors: { origin: this.env.corsOrigins === '*' ? '*' : this.env.corsOrigins, credentials: false },
      maxHttpBufferSize: TRIBE_LIMITS.maxMessageBytes,
      connectTimeout: 10_000,
      allowRequest: (request, callback) => {
        const refusal = this.refusal(request);
        callback(refusal, refusal === null);
      },
    }) as TribeServer;
    io.attach(this.httpServer as HttpServer);
    this.watch(io.engine);
    if (this.env.tribe.port !== undefined) {
      this.ownListener = createServer((_request, response) => {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"message":"Not found","data":null}');
      });
      io.attach(this.ownListener);
      this.watch(io.engine);
    }
    const hub = this.app.get(TribeHub);
    hub.closeTransport = () => this.closeTransport(io);
    hub.activateTransport = () => this.activate(io);
    return io;
  }

  /**
   * Shares the server's rooms with the other replicas (Redis sharded pub/sub), once Tribe is turned on: an
   * application that never serves Tribe (the default) opens no connections for it. Called before the first
   * connection is admitted and before the first room timer runs, so no socket ever sits in the in-memory adapter.
   */
  private activate(io: TribeServer): void {
    if (this.pub || this.closed) return;
    const target = redisTargetOf({ ...this.env, redisKeyPrefix: '' });
    const clientOptions = {
      commandTimeoutMs: this.env.redisCommandTimeoutMs,
      connectTimeoutMs: this.env.redisConnectTimeoutMs,
    };
    this.pub = createRedis(target, clientOptions);
    // The adapter sends its (un)subscriptions without waiting for them: without auto-pipelining they go out in order,
    // so the QUIT at close comes after them instead of failing them.
    this.sub =
      target.clusterNodes && target.clusterNodes.length > 0
        ? (this.pub as Cluster).duplicate(undefined, { shardedSubscribers: true })
        : (this.pub as IORedis).duplicate({ enableAutoPipelining: false });
    this.sub.on('error', () => undefined);
    handleRejections(this.sub, ['ssubscribe', 'sunsubscribe'], this.transportLog);
    io.adapter(
      createShardedAdapter(this.pub, this.sub, {
        channelPrefix: channelPrefix(this.env),
        subscriptionMode: 'dynamic',
      }),
    );
  }

  /** Starts the `TRIBE_PORT` listener, if any (its failure to bind fails the start). */
  async listenOwnPort(): Promise<void> {
    const server = this.ownListener;
    if (!server || server.listening || this.env.tribe.port === undefined) return;
    const port = this.env.tribe.port;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.env.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  }

  /** Why a new connection is refused, or null. Counted per engine connection, so idle handshakes count too. */
  private refusal(request: IncomingMessage): string | null {
    if (this.closed || this.app.get(ReadinessService).isDraining) return 'Server is restarting';
    if (this.open >= TRIBE_LIMITS.connectionsPerReplica) return 'Server is full';
    const address = clientAddress(request, this.env.trustProxy);
    if ((this.perAddress.get(address) ?? 0) >= TRIBE_LIMITS.connectionsPerAddress)
      return 'Too many connections from your address';
    return null;
  }

  private watch(engine: Engine): void {
    this.engines.push(engine);
    engine.on(
      'connection',
      (connection: { request: IncomingMessage; once: (e: string, f: () => void) => void }) => {
        const address = clientAddress(connection.request, this.env.trustProxy);
        this.open += 1;
        this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
        connection.once('close', () => {
          this.open -= 1;
          const left = (this.perAddress.get(address) ?? 1) - 1;
          if (left <= 0) this.perAddress.delete(address);
          else this.perAddress.set(address, left);
        });
      },
    );
  }

  /** Every connection of this replica closed, and no new one taken (the HTTP server may then close at once). */
  private closeTransport(io: TribeServer): void {
    if (this.closed) return;
    this.closed = true;
    io.local.disconnectSockets(true);
    for (const engine of this.engines) engine.close();
  }

  override async close(server: TribeServer): Promise<void> {
    this.closeTransport(server);
    if (this.pub) await Promise.resolve(server.of('/').adapter.close?.()).catch(() => undefined);
    const listener = this.ownListener;
    if (listener?.listening) await new Promise<void>((resolve) => listener.close(() => resolve()));
    await Promise.all([this.sub, this.pub].map((client) => client?.quit().catch(() => client.disconnect())));
  }
}

/** Installs the Tribe socket server on the application (before `init`, which starts the gateways). */
export function configureTribe(app: INestApplication, env: AppEnv): TribeIoAdapter {
  const adapter = new TribeIoAdapter(app, env);
  app.useWebSocketAdapter(adapter);
  return adapter;
}
