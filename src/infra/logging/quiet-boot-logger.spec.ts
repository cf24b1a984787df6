import type { Logger } from 'nestjs-pino';
import { QuietBootLogger } from './quiet-boot-logger';

/** Records which level each call reached. */
function recorder() {
  const calls: [string, unknown[]][] = [];
  const at =
    (level: string) =>
    (...args: unknown[]) =>
      calls.push([level, args]);
  const inner = {
    log: at('info'),
    debug: at('debug'),
    error: at('error'),
    warn: at('warn'),
    verbose: at('verbose'),
    fatal: at('fatal'),
  } as unknown as Logger;
  return { calls, logger: new QuietBootLogger(inner) };
}

describe('QuietBootLogger', () => {
  it.each([['RouterExplorer'], ['RoutesResolver'], ['InstanceLoader'], ['NestApplication'], ['NestFactory']])(
    'moves %s start-up lines to debug',
    (context) => {
      const { calls, logger } = recorder();
      logger.log('Mapped {/results, GET} route', context);
      expect(calls).toEqual([['debug', ['Mapped {/results, GET} route', context]]]);
    },
  );

  it('leaves application lines, and every warning and error, where they were', () => {
    const { calls, logger } = recorder();
    logger.log({ uid: 'u1' }, 'premium set', 'AdminService');
    logger.warn('CAPTCHA_SECRET is not set', 'HttpCaptchaVerifier');
    logger.error('boom', 'RouterExplorer');
    expect(calls.map(([level]) => level)).toEqual(['info', 'warn', 'error']);
  });
});
