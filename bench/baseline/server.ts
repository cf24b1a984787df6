import Fastify from 'fastify';
import pg from 'pg';
import { redisKeys } from '../../src/infra/redis/keys';
import { createRedis } from '../../src/infra/redis/redis';
import { LEADERBOARD_PAGE } from './leaderboard';
import { submitResult, tokenSubject } from './submit';

// int8 as numbers, as ours (src/infra/database/database.ts).
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

/**
 * The baseline: a bare Fastify server doing the same SQL and Redis calls as ours for scenarios 1 and 2, with no Nest,
 * no validation, no business rules. Our figures divided by its figures hold on a noisy machine.
 * Env: PORT, DATABASE_URL, REDIS_URL, DATABASE_POOL_MAX (as ours).
 */
async function main(): Promise<void> {
  const pool = new pg.Pool({
    connectionString: process.env.DATABASE_URL,
    max: Number(process.env.DATABASE_POOL_MAX ?? 20),
    idleTimeoutMillis: 30_000,
  });
  // Scenario 6 restarts PostgreSQL: an idle connection it closes is dropped by the pool, not a crash (as in ours).
  pool.on('error', () => undefined);
  const redis = createRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const app = Fastify({ logger: false, bodyLimit: 100 * 1024 });

  // As ours: an anonymous request checks the bad-authentication ban and counts the global limit and its route class
  // by IP, in one script, one Redis round trip (store I/O, which the floor mirrors; only the framework's work is ours
  // alone).
  const anonymousLimits = (ip: string, routeClass: string) => {
    const tracker = `ip:${ip}`;
    return redis.rateLimitUnlessBanned(
      redisKeys.badAuth(ip),
      redisKeys.rateLimit(tracker, 'global'),
      redisKeys.rateLimit(tracker, routeClass),
      30,
      2,
      ...[60_000, 1_000_000_000, 60_000, 1_000_000_000],
    );
  };

  app.get('/', async (request) => {
    await anonymousLimits(request.ip, 'status');
    return { message: 'ok', data: { uptime: process.uptime() * 1000, version: 'baseline' } };
  });

  app.post('/results', async (request, reply) => {
    const uid = tokenSubject(request.headers.authorization);
    const result = (request.body as { result?: Record<string, unknown> } | undefined)?.result;
    if (!uid || !result) return reply.code(401).send({ message: 'Unauthorized', data: null });
    const { status, body } = await submitResult(pool, redis, request.ip, uid, result);
    return reply.code(status).send(body);
  });

  app.get('/leaderboards', async (request) => {
    await anonymousLimits(request.ip, 'leaderboardsGet');
    const q = request.query as Record<string, string>;
    const page = await LEADERBOARD_PAGE.read(pool, {
      language: q.language ?? 'english',
      mode: q.mode ?? 'time',
      mode2: q.mode2 ?? '15',
      page: Number(q.page ?? 0),
      pageSize: Number(q.pageSize ?? 50),
    });
    return { message: 'Leaderboard retrieved', data: { ...page, pageSize: Number(q.pageSize ?? 50) } };
  });

  const close = async () => {
    await app.close();
    await pool.end();
    redis.disconnect();
    process.exit(0);
  };
  process.on('SIGINT', () => void close());
  process.on('SIGTERM', () => void close());
  await app.listen({ port: Number(process.env.PORT ?? 5006), host: '127.0.0.1' });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
