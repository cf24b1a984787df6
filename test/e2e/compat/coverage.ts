import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listRoutes } from '../../support/route-auth';
import type { TestApp } from '../../support/test-app';
import { ORIGINAL_ROUTES } from './original-routes';

/** The route table and the original routes not served live in docs/api.md. */
const API_DOC = readFileSync(join(__dirname, '../../../docs/api.md'), 'utf8');

/** The lines of one `## ` section of docs/api.md (without its heading). */
function apiDocSection(heading: string): string[] {
  const lines = API_DOC.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`docs/api.md has no "## ${heading}" section`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** `- \`GET /docs/public\`: why` items of docs/api.md's "Original routes not served" section. */
function listedAsNotServed(): { route: string; reason: string }[] {
  return apiDocSection('Original routes not served')
    .map((line) => /^- `((?:GET|POST|PATCH|DELETE) \/\S*)`[:\s]*(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ route: m[1]!, reason: m[2]!.trim() }));
}

// Parameter names differ between the contract and our controllers (`:id` / `:apeKeyId`); only the positions count.
const normalise = (method: string, path: string) => `${method} ${path.replace(/:\w+/g, ':')}`;
// docs/api.md writes parameters as `{name}`.
const docPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/**
 * The coverage checks, run on an app the caller starts (with `/docs` enabled): every original route is served or
 * listed in docs/api.md's "Original routes not served" with its reason, and docs/api.md lists no served route.
 */
export function describeCoverage(app: () => TestApp): void {
  let t: TestApp;
  let served: Set<string>;
  const isServed = (method: string, path: string) =>
    served.has(normalise(method, path)) ||
    // Routes outside Nest's controllers (Swagger's pages) are only in Fastify's table.
    t.app
      .getHttpAdapter()
      .getInstance()
      .hasRoute({ method: method as 'GET', url: path });

  beforeAll(() => {
    t = app();
    served = new Set(listRoutes(t.app).map((r) => normalise(r.method, r.path)));
  });

  it('lists 97 routes, none twice', () => {
    const keys = ORIGINAL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(keys).toHaveLength(97);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('serves every original route, or docs/api.md lists it under "Original routes not served" with a reason', () => {
    const listed = new Map(listedAsNotServed().map((l) => [l.route, l.reason]));
    const neither = ORIGINAL_ROUTES.filter(
      (r) => !isServed(r.method, r.path) && !listed.has(`${r.method} ${r.path}`),
    );
    expect(neither.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect([...listed].filter(([, reason]) => reason.length < 10)).toEqual([]);
  });

  it('docs/api.md lists no route that is served, and only routes of the original contract', () => {
    const listed = listedAsNotServed().map((l) => l.route);
    const known = new Set(ORIGINAL_ROUTES.map((r) => `${r.method} ${r.path}`));
    expect(listed.filter((route) => !known.has(route))).toEqual([]);
    expect(listed.filter((route) => isServed(...(route.split(' ') as [string, string])))).toEqual([]);
  });

  it("docs/api.md's route table names every path the app serves", () => {
    const table = apiDocSection('Routes').join('\n');
    const paths = [...new Set(listRoutes(t.app).map((r) => docPath(r.path)))];
    expect(paths.filter((path) => !table.includes(`${path}\``) && !table.includes(`${path} `))).toEqual([]);
  });
}
