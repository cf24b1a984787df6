import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { postgresCpuSeconds } from './postgres-cpu';
import { ProcessSampler } from './server-process';

export interface PlannedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadRun {
  url: string;
  /** The server process whose memory and CPU are sampled. */
  pid: number;
  /** The embedded PostgreSQL's postmaster, whose CPU is counted too (null: external server, not counted). */
  postgresPid?: number | null;
  connections: number;
  /** Fixed number of requests (precomputed bodies), or a duration in seconds. */
  amount?: number;
  duration?: number;
  /** The next request; called once per request. */
  next: () => PlannedRequest;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** Status codes of every answer, for the error detail line. */
  statuses: Record<string, number>;
  /** The first body answered with each non-2xx status (what went wrong). */
  errorSamples: Record<string, string>;
  rssMb: number | null;
  /** Server CPU time (user + system) per request, in ms. */
  cpuMsPerRequest: number | null;
  /** PostgreSQL's CPU time per request, in ms (embedded PostgreSQL only). */
  postgresCpuMsPerRequest: number | null;
}

/** What a run costs the server and PostgreSQL: RSS sampled during the run, CPU time divided by the requests. */
export class ResourceMeter {
  private readonly sampler: ProcessSampler;
  private readonly postgresAtStart: number | null;

  constructor(
    pid: number,
    private readonly postgresPid: number | null | undefined,
  ) {
    this.sampler = new ProcessSampler(pid);
    this.sampler.start();
    this.postgresAtStart = postgresPid ? postgresCpuSeconds(postgresPid) : null;
  }

  /** Stops sampling (call it once, when the run ends, answered or not). */
  stop(): { perRequest: (requests: number) => ResourceFigures } {
    const usage = this.sampler.stop();
    const postgresAtEnd = this.postgresPid ? postgresCpuSeconds(this.postgresPid) : null;
    const postgresSeconds =
      this.postgresAtStart === null || postgresAtEnd === null ? null : postgresAtEnd - this.postgresAtStart;
    return {
      perRequest: (requests) => ({
        rssMb: usage.rssMb,
        cpuMsPerRequest: msPerRequest(usage.cpuSeconds, requests),
        postgresCpuMsPerRequest: msPerRequest(postgresSeconds, requests),
      }),
    };
  }
}

export type ResourceFigures = Pick<LoadResult, 'rssMb' | 'cpuMsPerRequest' | 'postgresCpuMsPerRequest'>;

export function msPerRequest(seconds: number | null, requests: number): number | null {
  return seconds === null || requests === 0 ? null : (seconds * 1000) / requests;
}

/** Drives one scenario with autocannon (in this process; the server runs in its own) and samples the server's RSS. */
export async function runLoad(run: LoadRun): Promise<LoadResult> {
  const meter = new ResourceMeter(run.pid, run.postgresPid);
  const errorSamples: Record<string, string> = {};
  // autocannon ends a fixed-amount run on its one-second tick, so its `duration` is whole seconds there (6,666
  // requests in 4.2 s read as 1,667/s, in 4.9 s as 1,333/s): requests/s divides by the time to the last answer.
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  let result;
  let resources: ReturnType<ResourceMeter['stop']>;
  try {
    result = await autocannon({
      url: run.url,
      connections: run.connections,
      // autocannon refuses an option that is present but undefined.
      ...(run.amount === undefined ? { duration: run.duration ?? 10 } : { amount: run.amount }),
      timeout: 30,
      requests: [
        {
          setupRequest: (request) => {
            const planned = run.next();
            return {
              ...request,
              method: planned.method,
              path: planned.path,
              headers: {
                ...(planned.body ? { 'content-type': 'application/json' } : {}),
                ...planned.headers,
              },
              body: planned.body,
            };
          },
          onResponse: (status, body) => {
            lastAnswerAt = performance.now();
            if ((status < 200 || status > 299) && !(status in errorSamples)) {
              errorSamples[status] = String(body).slice(0, 400);
            }
          },
        },
      ],
    });
  } finally {
    resources = meter.stop();
  }
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = count;
  return {
    requests: result.requests.total,
    requestsPerSecond:
      run.amount === undefined
        ? result.duration > 0
          ? result.requests.total / result.duration
          : 0
        : result.requests.total / Math.max((lastAnswerAt - startedAt) / 1000, 1e-9),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statuses,
    errorSamples,
    ...resources.perRequest(result.requests.total),
  };
}
