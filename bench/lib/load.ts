import autocannon from 'autocannon';
import { RssSampler } from './server-process';

export interface PlannedRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadRun {
  url: string;
  /** The server process whose memory is sampled. */
  pid: number;
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
}

/** Drives one scenario with autocannon (in this process; the server runs in its own) and samples the server's RSS. */
export async function runLoad(run: LoadRun): Promise<LoadResult> {
  const sampler = new RssSampler(run.pid);
  sampler.start();
  const errorSamples: Record<string, string> = {};
  let result;
  let rssMb: number | null;
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
            if ((status < 200 || status > 299) && !(status in errorSamples)) {
              errorSamples[status] = String(body).slice(0, 400);
            }
          },
        },
      ],
    });
  } finally {
    rssMb = sampler.stop();
  }
  const statuses: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statuses[status] = count;
  return {
    requests: result.requests.total,
    requestsPerSecond: result.duration > 0 ? result.requests.total / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    statuses,
    errorSamples,
    rssMb,
  };
}
