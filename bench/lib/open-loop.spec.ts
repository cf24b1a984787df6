import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dueCount, intervalMs, percentile, runOpenLoop, sleepMs, summarize } from './open-loop';

describe('open-loop pacing', () => {
  it('spaces requests evenly at the rate asked for', () => {
    expect(intervalMs(500)).toBe(2);
    expect(intervalMs(3)).toBeCloseTo(333.333, 3);
    expect(() => intervalMs(0)).toThrow('rate must be a positive number');
    expect(() => intervalMs(Number.NaN)).toThrow('rate must be a positive number');
  });

  it('makes the first request due at once and one more per interval', () => {
    expect(dueCount(-1, 2, 100)).toBe(0);
    expect(dueCount(0, 2, 100)).toBe(1);
    expect(dueCount(1.999, 2, 100)).toBe(1);
    expect(dueCount(2, 2, 100)).toBe(2);
    // A timer 50 ms late: every request scheduled in between is due now (sent at once, measured from its schedule).
    expect(dueCount(51, 2, 100)).toBe(26);
    expect(dueCount(10_000, 2, 100)).toBe(100);
  });

  it("sleeps until the next send is due, at least the timers' millisecond, never zero (no spinning)", () => {
    expect(sleepMs(0.3)).toBe(1);
    expect(sleepMs(1.48)).toBe(2);
    expect(sleepMs(5)).toBe(5);
    expect(sleepMs(0)).toBe(1);
    expect(sleepMs(-2)).toBe(1);
  });

  it('does not lose a request to floating-point error at exact multiples of the interval', () => {
    const interval = intervalMs(3);
    expect(dueCount(3 * interval, interval, 100)).toBe(4);
  });
});

describe('open-loop percentiles', () => {
  it('takes the nearest rank of sorted values', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 50)).toBe(50);
    expect(percentile(sorted, 99)).toBe(99);
    expect(percentile(sorted, 100)).toBe(100);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 99)).toBe(0);
  });

  it('summarizes unsorted latencies, one slow outlier deciding p99 of a hundred but not p50', () => {
    const latencies = [...Array.from({ length: 99 }, () => 3), 250].reverse();
    expect(summarize(latencies)).toEqual({ p50: 3, p99: 3, max: 250 });
    expect(summarize([...latencies, 240])).toEqual({ p50: 3, p99: 240, max: 250 });
  });
});

describe('runOpenLoop', () => {
  let server: Server;
  let url: string;
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    // Answers after 40 ms, or 503 for /fail: a server slower than the send interval.
    server = createServer((req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => {
        inFlight--;
        res.statusCode = req.url === '/fail' ? 503 : 200;
        res.end(req.url === '/fail' ? '{"message":"down"}' : '{}');
      }, 40);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('keeps sending on schedule while earlier requests are still waiting (open loop)', async () => {
    maxInFlight = 0;
    const result = await runOpenLoop({
      url,
      pid: process.pid,
      rate: 200,
      duration: 0.5,
      next: () => ({ method: 'GET', path: '/ok' }),
    });
    expect(result.requests).toBe(100);
    expect(result.errors).toBe(0);
    expect(result.statuses).toEqual({ '200': 100 });
    // 40 ms answers every 5 ms: about 8 in flight; a closed loop with one connection would have had 1.
    expect(maxInFlight).toBeGreaterThanOrEqual(4);
    // The server's 40 ms timer may fire up to a millisecond early by the load generator's clock (timers run on the
    // event loop's millisecond-rounded time, latencies on performance.now()).
    expect(result.p50).toBeGreaterThanOrEqual(39);
    expect(result.max).toBeGreaterThanOrEqual(result.p99);
    expect(result.targetRate).toBe(200);
    // 100 answers over 0.5 s of sending plus the last answer's 40 ms.
    expect(result.achievedRate).toBeGreaterThan(100);
    expect(result.achievedRate).toBeLessThanOrEqual(200);
  });

  it('counts the wait in the client queue: one socket, ten sends in 50 ms, 40 ms each', async () => {
    const result = await runOpenLoop({
      url,
      pid: process.pid,
      rate: 200,
      duration: 0.05,
      maxSockets: 1,
      next: () => ({ method: 'GET', path: '/ok' }),
    });
    expect(result.requests).toBe(10);
    // The last one was scheduled at 45 ms and answered after the nine before it: about 400 ms in all, so its latency
    // from the schedule is about 355 ms, not the 40 ms the server spent on it.
    expect(result.max).toBeGreaterThan(300);
  });

  it('reports error statuses with a sample body, and socket errors', async () => {
    const failing = await runOpenLoop({
      url,
      pid: process.pid,
      rate: 100,
      duration: 0.05,
      next: () => ({ method: 'POST', path: '/fail', body: '{}' }),
    });
    expect(failing.errors).toBe(5);
    expect(failing.statuses).toEqual({ '503': 5 });
    expect(failing.errorSamples['503']).toBe('{"message":"down"}');

    const refused = await runOpenLoop({
      url: 'http://127.0.0.1:1',
      pid: process.pid,
      rate: 100,
      duration: 0.03,
      next: () => ({ method: 'GET', path: '/' }),
    });
    expect(refused.errors).toBe(3);
    expect(refused.statuses).toEqual({ 'socket error': 3 });
  });
});
