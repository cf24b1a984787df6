import { withAdvisoryLock } from '../../../src/infra/database/advisory-lock';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('withAdvisoryLock (PostgreSQL session advisory locks)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ stores: a.stores });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('runs a job body in exactly one of two replicas at a time', async () => {
    let running = 0;
    let maxRunning = 0;
    const body = async () => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 200));
      running -= 1;
      return 'done';
    };
    const outcomes = await Promise.all([
      withAdvisoryLock(a.db, 'job:test', body),
      withAdvisoryLock(b.db, 'job:test', body),
    ]);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);
    expect(outcomes.find((o) => o.ran)).toEqual({ ran: true, value: 'done' });
    expect(maxRunning).toBe(1);
  });

  it('releases the lock after success and after a failure', async () => {
    await expect(withAdvisoryLock(a.db, 'job:fail', () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(await withAdvisoryLock(b.db, 'job:fail', () => Promise.resolve(1))).toEqual({
      ran: true,
      value: 1,
    });
  });

  it('does not block different job names', async () => {
    const slow = withAdvisoryLock(a.db, 'job:one', () => new Promise((r) => setTimeout(() => r('one'), 200)));
    expect(await withAdvisoryLock(b.db, 'job:two', () => Promise.resolve('two'))).toEqual({
      ran: true,
      value: 'two',
    });
    expect(await slow).toEqual({ ran: true, value: 'one' });
  });
});
