import type { AppEnv } from '../../config/env';
import { hasMetricsToken, metricsAccess } from './metrics-access';

const TOKEN = 'm'.repeat(24);
const env = (mode: AppEnv['mode'], metrics: Partial<AppEnv['metrics']> = {}) => ({
  mode,
  metrics: { host: '127.0.0.1', ...metrics },
});

describe('metricsAccess', () => {
  it.each([
    // [label, env, header, on the metrics port, expected]
    ['production, nothing configured', env('production'), undefined, false, 'hidden'],
    ['dev, nothing configured', env('dev'), undefined, false, 'allowed'],
    ['dev with a metrics port, on the API port', env('dev', { port: 9464 }), undefined, false, 'hidden'],
    ['production, on the metrics port', env('production', { port: 9464 }), undefined, true, 'allowed'],
    ['token, right token', env('production', { token: TOKEN }), `Bearer ${TOKEN}`, false, 'allowed'],
    ['token, no header', env('production', { token: TOKEN }), undefined, false, 'unauthorized'],
    ['token, wrong token', env('production', { token: TOKEN }), `Bearer ${TOKEN}x`, false, 'unauthorized'],
    ['token, other scheme', env('dev', { token: TOKEN }), `ApeKey ${TOKEN}`, false, 'unauthorized'],
    [
      'token, on the metrics port without it',
      env('production', { token: TOKEN, port: 1 }),
      undefined,
      true,
      'unauthorized',
    ],
  ] as const)('%s → %s', (_label, e, header, onPort, expected) => {
    expect(metricsAccess(e, header, onPort)).toBe(expected);
  });

  it('compares tokens of any length without throwing', () => {
    expect(hasMetricsToken('Bearer ', TOKEN)).toBe(false);
    expect(hasMetricsToken(`Bearer ${'x'.repeat(10_000)}`, TOKEN)).toBe(false);
    expect(hasMetricsToken(`Bearer  ${TOKEN} `, TOKEN)).toBe(true);
  });
});
