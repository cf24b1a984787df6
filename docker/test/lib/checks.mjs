// Named checks with their outcome (a failed check is reported and the run goes on), and a small HTTP client for the
// API's published port.
import { say } from './run.mjs';

export class Checks {
  results = [];

  /** Runs fn; a thrown error fails the check with its message. fn may return a detail line. */
  async check(name, fn) {
    try {
      const detail = await fn();
      this.results.push({ name, ok: true, detail });
      say(`ok   ${name}${detail ? ` (${detail})` : ''}`);
      return true;
    } catch (e) {
      this.results.push({ name, ok: false, detail: e.message });
      say(`FAIL ${name}: ${e.message}`);
      return false;
    }
  }

  get passed() {
    return this.results.filter((r) => r.ok).length;
  }

  get failed() {
    return this.results.filter((r) => !r.ok).length;
  }
}

export function expect(condition, message) {
  if (!condition) throw new Error(message);
}

/** `status body` of a response, shortened, for failure messages. */
export function shown(res) {
  const body = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  return `${res.status} ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`;
}

/** request(method, path, { token, body, headers }) → { status, body (parsed JSON when JSON), headers }. */
export function httpClient(baseUrl) {
  return async function request(method, path, options = {}) {
    const headers = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    // A timer of our own, not AbortSignal.timeout: that one does not keep the process alive, and a request to a
    // published port whose container is not listening yet can leave fetch waiting on nothing that does (Node then
    // exits mid-test with the promise unsettled).
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(new Error('timed out')), options.timeoutMs ?? 15_000);
    let res;
    let text;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: abort.signal,
      });
      text = await res.text();
    } finally {
      clearTimeout(timer);
    }
    let body = text;
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
    }
    return { status: res.status, body, headers: res.headers };
  };
}

/** Polls GET /readyz until 200; resolves with the milliseconds it took, rejects after timeoutMs. */
export async function waitReady(request, timeoutMs) {
  const t0 = Date.now();
  let last = 'no answer';
  while (Date.now() - t0 < timeoutMs) {
    try {
      const res = await request('GET', '/readyz', { timeoutMs: 2_000 });
      if (res.status === 200) return Date.now() - t0;
      last = shown(res);
    } catch (e) {
      last = e.cause?.code ?? e.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`/readyz did not answer 200 within ${timeoutMs / 1000} s (last: ${last})`);
}
