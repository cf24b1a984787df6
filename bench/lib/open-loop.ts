import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { msPerRequest, ResourceMeter, type LoadResult, type PlannedRequest } from './load';

/**
 * Open-loop load: requests leave on a fixed schedule (request i at start + i / rate) whether or not earlier ones were
 * answered, and each latency is measured from its scheduled time, not from when the client got round to sending it.
 * A closed loop (autocannon: N connections, each sends when its last answer arrived) stops sending while the server
 * stalls, so a stall shows up as one slow request instead of the hundreds that would have queued behind it
 * ("coordinated omission"); it also only measures queueing once the connections outnumber what the server serves in
 * parallel. Here a stall of the server, of the socket pool or of this process's timers all count in the latency.
 */

export interface OpenLoopRun {
  url: string;
  /** The server process whose memory and CPU are sampled. */
  pid: number;
  /** The embedded PostgreSQL's postmaster, whose CPU is counted too (null: not counted). */
  postgresPid?: number | null;
  /** Requests per second to send. */
  rate: number;
  /** Seconds of sending. */
  duration: number;
  /**
   * Sockets the client may open; requests beyond them wait in the client's queue (their wait counts). Well above
   * rate × expected latency, so the client's own queue only fills when the server falls behind.
   */
  maxSockets?: number;
  /** A request not answered within this many ms counts as an error (its latency is kept: it waited that long). */
  timeoutMs?: number;
  /** The next request; called once per request, at its scheduled time. */
  next: () => PlannedRequest;
}

export interface OpenLoopResult extends LoadResult {
  /** Requests per second asked for. */
  targetRate: number;
  /** Requests per second answered, over the time from the first scheduled send to the last answer. */
  achievedRate: number;
  max: number;
  /** Requests sent after their scheduled time by more than a millisecond (this process's timers fell behind). */
  lateSends: number;
  /** This process's CPU time per request, in ms: the load generator's share of the two cores. */
  clientCpuMsPerRequest: number | null;
}

/** Interval between scheduled sends, in ms. */
export function intervalMs(rate: number): number {
  if (!Number.isFinite(rate) || rate <= 0) throw new Error(`rate must be a positive number (got ${rate})`);
  return 1000 / rate;
}

/**
 * How many requests are due `elapsedMs` after the start: request i is due at i × interval (the first at once), capped
 * at `total`. A timer that fires late makes the caller send every overdue request at once, each still measured from
 * its own scheduled time.
 */
export function dueCount(elapsedMs: number, interval: number, total: number): number {
  if (elapsedMs < 0) return 0;
  return Math.min(total, Math.floor(elapsedMs / interval + 1e-9) + 1);
}

/**
 * How long the generator sleeps before the next send, due `waitMs` from now: until it is due, rounded up to the timers'
 * 1 ms granularity, so that it leaves at most about a millisecond late (measured from its schedule, that lateness
 * counts in its latency). It never spins: waking on `setImmediate` until a send was due, as it did, burnt about
 * 0.3 ms of CPU per request at 600-750 requests/s, taken from the server and PostgreSQL on the 2-core machine.
 */
export function sleepMs(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs));
}

/** The value at percentile p (0-100) of ascending values, nearest-rank: the smallest value with p % at or below it. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  if (p <= 0) return sorted[0] as number;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

/** p50, p99 and max of latencies in ms (exact: every latency is kept, a few tens of thousands per run). */
export function summarize(latencies: ArrayLike<number>): { p50: number; p99: number; max: number } {
  const sorted = Float64Array.from(latencies).sort();
  return {
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.length === 0 ? 0 : (sorted[sorted.length - 1] as number),
  };
}

interface Outcome {
  latency: number;
  status: number | null;
  body: string;
}

function send(
  agent: Agent,
  base: URL,
  planned: PlannedRequest,
  timeoutMs: number,
): Promise<Omit<Outcome, 'latency'>> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      ...(planned.body ? { 'content-type': 'application/json' } : {}),
    };
    Object.assign(headers, planned.headers);
    if (planned.body !== undefined) headers['content-length'] = String(Buffer.byteLength(planned.body));
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: planned.method,
        path: planned.path,
        headers,
        timeout: timeoutMs,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status <= 299;
        const chunks: Buffer[] = [];
        // Error bodies are kept for the report; successful ones are only drained.
        res.on('data', (chunk: Buffer) => {
          if (!ok) chunks.push(chunk);
        });
        res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ status: null, body: e.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (e) => resolve({ status: null, body: e.message }));
    req.end(planned.body);
  });
}

/** Drives one open-loop run from this process (the server runs in its own) and samples the server's RSS and CPU. */
export async function runOpenLoop(run: OpenLoopRun): Promise<OpenLoopResult> {
  const interval = intervalMs(run.rate);
  const total = Math.max(1, Math.round(run.rate * run.duration));
  const timeoutMs = run.timeoutMs ?? 30_000;
  const agent = new Agent({ keepAlive: true, maxSockets: run.maxSockets ?? 256 });
  const base = new URL(run.url);
  const latencies = new Float64Array(total);
  const statuses: Record<string, number> = {};
  const errorSamples: Record<string, string> = {};
  let errors = 0;
  let answered = 0;
  let lateSends = 0;
  let lastAnswerAt = 0;
  const pending: Promise<void>[] = [];

  const meter = new ResourceMeter(run.pid, run.postgresPid);
  const clientAtStart = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  try {
    await new Promise<void>((resolve) => {
      const tick = () => {
        const now = performance.now();
        const due = dueCount(now - start, interval, total);
        for (; sent < due; sent++) {
          const index = sent;
          const scheduledAt = start + index * interval;
          if (now - scheduledAt > 1) lateSends++;
          pending.push(
            send(agent, base, run.next(), timeoutMs).then(({ status, body }) => {
              const at = performance.now();
              latencies[index] = at - scheduledAt;
              lastAnswerAt = Math.max(lastAnswerAt, at);
              answered++;
              const key = status === null ? 'socket error' : String(status);
              statuses[key] = (statuses[key] ?? 0) + 1;
              if (status === null || status < 200 || status > 299) {
                errors++;
                if (!(key in errorSamples)) errorSamples[key] = body.slice(0, 400);
              }
            }),
          );
        }
        if (sent >= total) {
          resolve();
          return;
        }
        setTimeout(tick, sleepMs(start + sent * interval - performance.now()));
      };
      tick();
    });
    await Promise.all(pending);
  } finally {
    agent.destroy();
  }
  const resources = meter.stop();
  const client = process.cpuUsage(clientAtStart);
  const { p50, p99, max } = summarize(latencies);
  const elapsedSeconds = (lastAnswerAt - start) / 1000;
  const achievedRate = elapsedSeconds > 0 ? answered / elapsedSeconds : 0;
  return {
    requests: answered,
    requestsPerSecond: achievedRate,
    p50,
    p99,
    errors,
    statuses,
    errorSamples,
    ...resources.perRequest(answered),
    targetRate: run.rate,
    achievedRate,
    max,
    lateSends,
    clientCpuMsPerRequest: msPerRequest((client.user + client.system) / 1e6, answered),
  };
}
