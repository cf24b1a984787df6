import { Writable } from 'node:stream';
import Fastify from 'fastify';
import type { AppEnv } from '../../config/env';
import { AppLogger, createRootLogger } from './app-logger';
import { installRequestLogging } from './request-log';

type Line = Record<string, unknown>;

/** A bare Fastify app logging through our root logger, with or without the request context. */
async function appWith(context: boolean) {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  const root = createRootLogger({ logLevel: 'info', logPretty: false } as AppEnv, sink);
  const logger = new AppLogger(root);
  const fastify = Fastify();
  installRequestLogging(fastify, root, { context });
  fastify.get('/inside', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    logger.warn('from the handler', 'Handler');
    return { ok: true };
  });
  await fastify.ready();
  return { fastify, lines };
}

describe('installRequestLogging', () => {
  it.each([
    [true, 'carries'],
    [false, 'does not carry'],
  ])(
    'with context %s: a line the handler writes %s the request id; the request line always does',
    async (context) => {
      const { fastify, lines } = await appWith(context);
      try {
        const res = await fastify.inject({ method: 'GET', url: '/inside' });
        expect(res.statusCode).toBe(200);
        const inside = lines.find((l) => l.msg === 'from the handler');
        const done = lines.find((l) => l.msg === 'request completed');
        expect(done).toMatchObject({ req: { url: '/inside' }, res: { statusCode: 200 } });
        expect(typeof done?.reqId).toBe('string');
        expect(inside).toMatchObject({ level: 40, context: 'Handler' });
        expect(inside?.reqId).toBe(context ? done?.reqId : undefined);
      } finally {
        await fastify.close();
      }
    },
  );
});
