import { COMPATIBILITY_CHECK } from '../../../src/app.factory';
import type { TestApp, TestResponse } from '../../support/test-app';
import { freshIp } from '../../support/route-auth';
import { ORIGINAL_ROUTES } from './original-routes';
import { shapeErrors, type Shape } from './shape';

/** The version header the original web client sends with every request (used for metrics only). */
export const CLIENT_VERSION = '25.48.0';

type QueryValue = string | number | boolean | readonly unknown[] | Record<string, unknown>;

/**
 * The query string the original client builds (ts-rest `jsonQuery: true`): every value is JSON-stringified, except
 * strings that could not be mistaken for another JSON value, which ts-rest leaves bare for readable URLs. So
 * `mode2: "15"` travels as `mode2=%2215%22`, `page: 0` as `page=0`, arrays as `%5B...%5D`, `language` as `english`.
 * `quoteStrings` stringifies those too (`language=%22english%22`), which the server must read the same way.
 */
export function jsonQuery(query: Record<string, QueryValue | undefined>, quoteStrings = false): string {
  const parts = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const bare =
        !quoteStrings &&
        typeof value === 'string' &&
        !['true', 'false', 'null'].includes(value.trim()) &&
        isNaN(Number(value));
      return `${encodeURIComponent(key)}=${encodeURIComponent(bare ? value : JSON.stringify(value))}`;
    });
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

export interface CallOptions {
  auth?: string;
  params?: Record<string, string>;
  query?: Record<string, QueryValue | undefined>;
  /** JSON-stringify string query values too (see `jsonQuery`). */
  quoteStrings?: boolean;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls routes of ORIGINAL_ROUTES the way the original client does, and remembers which ones were called. */
export class OriginalClient {
  /** Route → how it was authenticated in each call (`none`, `Bearer`, `ApeKey`). */
  readonly called = new Map<string, Set<string>>();

  constructor(private readonly t: TestApp) {}

  /** `route` is `METHOD /path/:param` exactly as in ORIGINAL_ROUTES. */
  async call<T = unknown>(route: string, options: CallOptions = {}): Promise<TestResponse<T>> {
    const [method, pattern] = route.split(' ') as [string, string];
    if (!ORIGINAL_ROUTES.some((r) => r.method === method && r.path === pattern)) {
      throw new Error(`${route} is not a route of ORIGINAL_ROUTES`);
    }
    const path = pattern.replace(/:(\w+)/g, (_, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`${route}: no value for :${name}`);
      return encodeURIComponent(value);
    });
    const scheme = options.auth?.split(' ')[0] ?? 'none';
    this.called.set(route, (this.called.get(route) ?? new Set()).add(scheme));
    return this.t.request<T>(method, `${path}${jsonQuery(options.query ?? {}, options.quoteStrings)}`, {
      auth: options.auth,
      body: options.body,
      rawBody: options.rawBody,
      headers: { 'x-client-version': CLIENT_VERSION, ...options.headers },
      ip: freshIp(),
    });
  }
}

/**
 * Status, exact message and the shape of `data` (the error envelope has `data: null`), and the compatibility header
 * the client compares with its own constant (contract facts §1.7).
 */
export function expectAnswer(res: TestResponse, status: number, message: string, data: Shape): void {
  expect({ status: res.status, message: res.body?.message }).toEqual({ status, message });
  expect(res.headers['x-compatibility-check']).toBe(String(COMPATIBILITY_CHECK));
  expect(shapeErrors(res.body.data, data)).toEqual([]);
  const extra = Object.keys(res.body).filter((k) => k !== 'message' && k !== 'data');
  expect(extra).toEqual([]);
}

export const expectOk = (res: TestResponse, message: string, data: Shape = 'null') =>
  expectAnswer(res, 200, message, data);
