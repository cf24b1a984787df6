import { Writable } from 'node:stream';
import type { AppEnv } from '../../config/env';
import { AppLogger, createRootLogger, REQUEST_CONTEXT_IS_CHEAP, requestContext } from './app-logger';

type Line = Record<string, unknown>;

function sinkLogger(level = 'debug') {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  const root = createRootLogger({ logLevel: level, logPretty: false } as AppEnv, sink);
  return { lines, logger: new AppLogger(root) };
}

const fields = (line: Line | undefined) => {
  const { time: _t, pid: _p, hostname: _h, ...rest } = line ?? {};
  return rest;
};

describe('AppLogger (Nest LoggerService over pino)', () => {
  it('writes what a Nest Logger call says: its fields, its message, its context', () => {
    const { lines, logger } = sinkLogger();
    logger.warn({ uid: 'u1', check: 'speed' }, 'result refused', 'ResultsSubmitService');
    logger.log('listening', 'Main');
    expect(lines.map(fields)).toEqual([
      { level: 40, context: 'ResultsSubmitService', uid: 'u1', check: 'speed', msg: 'result refused' },
      { level: 30, context: 'Main', msg: 'listening' },
    ]);
  });

  it('carries an Error as err, and a stack handed over as a string too', () => {
    const { lines, logger } = sinkLogger();
    logger.error(new Error('boom'), 'Context');
    logger.error('failed', 'Error: failed\n    at somewhere (file.js:1:1)', 'ExceptionsHandler');
    expect(lines[0]).toMatchObject({ level: 50, context: 'Context', err: { message: 'boom' } });
    expect(lines[1]).toMatchObject({
      level: 50,
      context: 'ExceptionsHandler',
      err: { message: 'failed', stack: 'Error: failed\n    at somewhere (file.js:1:1)' },
    });
  });

  it.each([['RouterExplorer'], ['RoutesResolver'], ['InstanceLoader'], ['NestApplication'], ['NestFactory']])(
    "moves Nest's %s start-up lines to debug",
    (context) => {
      const { lines, logger } = sinkLogger();
      logger.log('Mapped {/results, GET} route', context);
      expect(lines.map((l) => l.level)).toEqual([20]);
    },
  );

  it('writes nothing below its level, and leaves warnings and errors where they were', () => {
    const { lines, logger } = sinkLogger('info');
    logger.log('Mapped {/results, GET} route', 'RouterExplorer');
    logger.debug({ a: 1 }, 'detail', 'X');
    logger.warn('CAPTCHA_SECRET is not set', 'HttpCaptchaVerifier');
    logger.error('boom', 'RouterExplorer');
    expect(lines.map((l) => l.level)).toEqual([40, 50]);
  });

  it('knows which runtimes carry the request context without promise hooks: Node 24, not Node 20', () => {
    const major = Number(process.versions.node.split('.')[0]);
    expect(REQUEST_CONTEXT_IS_CHEAP).toBe(major >= 24);
  });

  it('gives every line written inside a request its reqId, and none outside', async () => {
    const { lines, logger } = sinkLogger();
    await requestContext.run({ reqId: 'r-1' }, async () => {
      await Promise.resolve();
      logger.log({ uid: 'u' }, 'inside', 'X');
    });
    logger.log('outside', 'X');
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['inside', 'r-1'],
      ['outside', undefined],
    ]);
  });

  it('redacts credentials wherever a request header object is logged', () => {
    const { lines, logger } = sinkLogger();
    logger.warn({ req: { headers: { authorization: 'Bearer secret', cookie: 'c=1' } } }, 'odd', 'X');
    expect(JSON.stringify(lines)).not.toContain('secret');
    expect(lines[0]).toMatchObject({
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } },
    });
  });
});
