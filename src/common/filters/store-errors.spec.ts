import { ServiceUnavailableException } from '@nestjs/common';
import { AppError } from '../app-error';
import { isStoreUnavailable } from './store-errors';

function pgError(code: string, message = 'pg error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('isStoreUnavailable', () => {
  it.each([
    [
      'connection refused',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
    ],
    ['connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    ['socket timeout', Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })],
    ['pg connection lost', new Error('Connection terminated unexpectedly')],
    ['pg pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['pg 08006 connection failure', pgError('08006')],
    ['pg 08001 cannot connect', pgError('08001')],
    ['pg 57P01 admin shutdown', pgError('57P01')],
    ['pg 57P02 crash shutdown', pgError('57P02')],
    ['pg 57P03 cannot connect now', pgError('57P03')],
    ['pg 53300 too many connections', pgError('53300')],
    ['pg 53100 disk full', pgError('53100')],
    ['pg 57014 statement timeout', pgError('57014')],
    [
      'ioredis offline queue off',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    ['ioredis command timeout', new Error('Command timed out')],
    ['ioredis closed', new Error('Connection is closed.')],
    [
      'ioredis retries',
      Object.assign(new Error('Reached the max retries per request limit (which is 1).'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    ['cluster slot without a master', new Error('CLUSTERDOWN The cluster is down')],
    ['cluster slot migrating', new Error('TRYAGAIN Multiple keys request during rehashing of slot')],
    ['cluster slot map unreadable', new Error('Failed to refresh slots cache.')],
    ['cluster owner of a slot down', new Error('MOVED 5038 127.0.0.1:38175')],
    ['cluster redirections exhausted', new Error('Too many Cluster redirections. Last error: Error: x')],
    ['our fast failure', Object.assign(new Error('Redis is unreachable'), { name: 'RedisUnavailableError' })],
    ['both addresses refused', new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })])],
    ['wrapped cause', new Error('query failed', { cause: pgError('08003') })],
  ])('%s → unavailable', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it.each([
    ['unique violation', pgError('23505')],
    ['syntax error', pgError('42601')],
    ['serialization failure', pgError('40001')],
    ['admin cancel 57P04 (not listed)', pgError('57P04')],
    ['plain bug', new TypeError('x is undefined')],
    ['file not found', Object.assign(new Error('nope'), { code: 'ENOENT' })],
    ['permission error', Object.assign(new Error('nope'), { code: 'EPERM' })],
    ['redis script error', new Error('ERR Error running script')],
    ['a message merely mentioning MOVED', new Error('user MOVED 3 items')],
    // A script or command spanning slots is our bug, not an outage: it must not hide behind a 503.
    ['cluster cross-slot bug', new Error("CROSSSLOT Keys in request don't hash to the same slot")],
    ['not an error', 'Connection terminated'],
    ['our own error', new AppError(409, 'Connection is closed for new friends')],
    ['a framework error', new ServiceUnavailableException('Command timed out')],
    ['null', null],
  ])('%s → not a store outage', (_name, error) => {
    expect(isStoreUnavailable(error)).toBe(false);
  });
});
