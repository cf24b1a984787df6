import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { benchDataDir } from './lib/stack';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package, one of our files, Node itself, or the VM. */
function owner(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  const ours = /\/dist\/(src|bench)\/(.+)\.js$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return url;
  return url;
}

/** Buckets for the timing breakdown: what kind of work a frame on top of the stack is doing. */
const CATEGORIES: [string, RegExp][] = [
  [
    'socket writes and reads (kernel, loopback TCP)',
    /^\((native)\) (writev|writeBuffer|writeUtf8String|writeLatin1String|readv?|close)$/,
  ],
  ['garbage collection', /^\(garbage collector\)/],
  [
    'validation (class-validator, class-transformer, our DTO checks)',
    /^(class-validator|class-transformer|reflect-metadata|validator|src\/modules\/results\/dto|src\/common\/validation)/,
  ],
  [
    'result hash (object-hash, src/.../result-hash)',
    /^(object-hash|src\/modules\/results\/domain\/result-hash)/,
  ],
  ['query building (Kysely)', /^kysely/],
  ['PostgreSQL client (pg, pg-protocol, pg-pool, pg-types)', /^(pg|pg-protocol|pg-pool|pg-types|postgres-)/],
  ['Redis client (ioredis)', /^(ioredis|redis-parser|@ioredis|denque|cluster-key-slot|standard-as-callback)/],
  [
    'HTTP (fastify, node:http, JSON parse)',
    /^(fastify|@fastify|find-my-way|secure-json-parse|fast-json-stringify|light-my-request|avvio|fastq|node:_http|node:internal\/http)/,
  ],
  ['Nest (core, throttler, rxjs)', /^(@nestjs|rxjs|iterare|tslib)/],
  ['AsyncLocalStorage / promise hooks (request context)', /^node:internal\/async_hooks/],
  [
    'logging and metrics (pino, prom-client)',
    /^(pino|pino-http|nestjs-pino|prom-client|sonic-boom|fast-redact|tdigest|bintrees)/,
  ],
  ['auth (jose, lru-cache, our guard)', /^(jose|lru-cache|src\/common\/auth|src\/common\/rate-limit)/],
  ['our other code (src/)', /^src\//],
];

/**
 * Layers of one request, for the per-layer breakdown. A sample belongs to the innermost frame of its stack that one
 * of these names (first rule that matches that frame), so the Redis call of the rate-limit guard counts for the rate
 * limit and a repository's query for the handler. The PostgreSQL and Redis clients are counted apart (the "of which"
 * column) and, when no layer is above them on the stack (a reply being parsed, a query sent from a resumed Kysely
 * continuation), as a row of their own: that is the store work the baseline does as well.
 */
const LAYERS: [string, RegExp][] = [
  [
    'logging (pino-http, pino)',
    /^(pino|pino-http|nestjs-pino|@pinojs\/redact|sonic-boom|fast-redact|pino-std-serializers|thread-stream|src\/infra\/logging)/,
  ],
  ['metrics (prom-client, onResponse hook)', /^(prom-client|tdigest|bintrees|src\/modules\/status\/metrics)/],
  ['security headers and CORS (helmet, @fastify/cors)', /^(helmet|@fastify\/helmet|@fastify\/cors|vary)/],
  [
    'body and query parsing (JSON, depth check)',
    /^(secure-json-parse|src\/common\/validation\/json-|fastify content-type-parser)/,
  ],
  [
    'rate limit and bans (throttler, bad-auth, their Redis calls)',
    /^(@nestjs\/throttler|src\/common\/rate-limit|src\/common\/auth\/bad-auth)/,
  ],
  ['guard: authentication, account read, policy', /^(src\/common\/auth|jose|lru-cache)/],
  [
    'validation (pipes, class-validator, class-transformer)',
    /^(class-validator|class-transformer|validator|reflect-metadata|src\/common\/validation|src\/modules\/[^/]+\/dto)/,
  ],
  // Before the handler, which holds them: their share is what the open checks cost a submission (issue 31: ≤ 5 %).
  [
    'anti-cheat checks (judge, consistency, bot timing)',
    /^src\/modules\/results\/(domain\/(judge|normalise|anti-cheat\/)|anti-cheat$)/,
  ],
  ['result hash (object-hash of the body)', /^(object-hash|src\/modules\/results\/domain\/result-hash)/],
  [
    'handler (services, repositories, domain)',
    /^(src\/modules|src\/infra\/database|src\/config|src\/common)/,
  ],
  ['serialisation (JSON.stringify, fast-json-stringify)', /^(fast-json-stringify|fastify reply:serialize)/],
  [
    'response write (node:http, socket)',
    /^(fastify reply:(writePayload|onSendEnd|safeWriteHead)|node:_http_outgoing|node:_http_server)/,
  ],
  [
    'routing and framework (fastify, find-my-way, Nest core, hooks)',
    /^(fastify|find-my-way|@fastify\/middie|@nestjs|rxjs|iterare|avvio|toad-cache|reusify|src\/app\.factory)/,
  ],
  ['garbage collection', /^\(garbage collector\)/],
];

const STORE_CLIENTS: [string, RegExp][] = [
  ['PostgreSQL client (pg, Kysely)', /^(pg|pg-protocol|pg-pool|pg-types|postgres-|kysely)/],
  ['Redis client (ioredis)', /^(ioredis|redis-parser|@ioredis|denque|cluster-key-slot|standard-as-callback)/],
];

/** The key a layer rule sees: the owner, with the file and function for Fastify's own modules. */
function layerKey(frame: ProfileNode['callFrame']): string {
  const lib = /node_modules\/fastify\/lib\/([^/]+)\.js$/.exec(frame.url);
  if (lib) return `fastify ${lib[1]}:${frame.functionName}`;
  return owner(frame);
}

function firstMatch(rules: [string, RegExp][], key: string): string | undefined {
  for (const [name, pattern] of rules) if (pattern.test(key)) return name;
  return undefined;
}

function category(frame: ProfileNode['callFrame']): string {
  const who = owner(frame);
  const key = who === '(native)' ? `(native) ${frame.functionName}` : who;
  for (const [name, pattern] of CATEGORIES) if (pattern.test(key)) return name;
  return who.startsWith('node:') ? 'Node internals (streams, events, timers)' : `other: ${who}`;
}

function label(frame: ProfileNode['callFrame']): string {
  return `${frame.functionName || '(anonymous)'} ${owner(frame)}:${frame.lineNumber + 1}`;
}

/**
 * The layer of a stack (innermost frame first): the innermost frame a layer rule names, and the store client met on the
 * way there, if any. `row` is the line of the breakdown it counts on.
 */
function layerOf(frames: ProfileNode['callFrame'][]): { row: string; layer?: string; client?: string } {
  let client: string | undefined;
  for (const frame of frames) {
    const key = layerKey(frame);
    client ??= firstMatch(STORE_CLIENTS, key);
    const layer = firstMatch(LAYERS, key);
    if (layer) return { row: layer, layer, client };
  }
  return { row: client ? `${client}, no layer above` : 'event loop, sockets, Node internals', client };
}

function table(title: string, entries: [string, number][], total: number, limit: number): string {
  const lines = [`${title}`];
  for (const [name, micros] of entries.sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    lines.push(
      `  ${((micros / total) * 100).toFixed(1).padStart(5)}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}`,
    );
  }
  return lines.join('\n');
}

/**
 * Summarises a V8 CPU profile of the server (`npm run bench -- --profile`): time by owner (package or our file)
 * counting only the frame on top of the stack, and time by function counting everything below it (inclusive), which
 * is what names the slow part of a request. Idle time is left out of the percentages.
 */
export function summarise(profile: CpuProfile, limit = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const categories = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const layers = new Map<string, number>();
  const inClients = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    busy += delta;
    const who = owner(node.callFrame);
    self.set(who, (self.get(who) ?? 0) + delta);
    const kind = category(node.callFrame);
    categories.set(kind, (categories.get(kind) ?? 0) + delta);
    const stack: ProfileNode['callFrame'][] = [];
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = byId.get(cursor)?.callFrame;
      if (frame) stack.push(frame);
    }
    const { row, layer, client } = layerOf(stack);
    layers.set(row, (layers.get(row) ?? 0) + delta);
    if (layer && client) inClients.set(layer, (inClients.get(layer) ?? 0) + delta);
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = byId.get(cursor)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      const key = label(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + delta);
    }
  });
  return [
    `busy CPU time: ${(busy / 1000).toFixed(0)} ms`,
    table('per-layer breakdown (innermost layer on the stack):', [...layers], busy, limit),
    table(
      '  of which in the PostgreSQL and Redis clients (and their socket writes):',
      [...inClients],
      busy,
      limit,
    ),
    table('timing breakdown (self time by kind of work):', [...categories], busy, limit),
    table('self time by owner (package or our file):', [...self], busy, limit),
    table('inclusive time by function:', [...inclusive], busy, limit * 2),
  ].join('\n\n');
}

interface HeapNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  children: HeapNode[];
}

/** A V8 sampling heap profile (`.heapprofile`, written beside the CPU profile by bench/lib/profiler-hook.ts). */
interface HeapProfile {
  head: HeapNode;
  samples: { size: number; nodeId: number }[];
}

/**
 * Where the bytes a scenario allocated were allocated (what the garbage collector then pays for), by the same layers as
 * the CPU breakdown and by function. Sampled: every object is counted, kept or collected, with its size scaled by the
 * sampling interval. With `requests`, also per request.
 */
export function summariseAllocations(profile: HeapProfile, requests?: number, limit = 25): string {
  const bytesOf = new Map<number, number>();
  for (const sample of profile.samples)
    bytesOf.set(sample.nodeId, (bytesOf.get(sample.nodeId) ?? 0) + sample.size);
  const layers = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, stack: ProfileNode['callFrame'][]) => {
    const frames = [node.callFrame, ...stack];
    const bytes = bytesOf.get(node.id) ?? 0;
    if (bytes > 0) {
      total += bytes;
      const { row } = layerOf(frames);
      layers.set(row, (layers.get(row) ?? 0) + bytes);
      // A native allocation (a string, an array) is named after the JavaScript function that asked for it.
      const named = frames.find((frame) => frame.url !== '') ?? node.callFrame;
      const key =
        node.callFrame.url === ''
          ? `${node.callFrame.functionName} <- ${label(named)}`
          : label(node.callFrame);
      functions.set(key, (functions.get(key) ?? 0) + bytes);
    }
    for (const child of node.children) walk(child, frames);
  };
  walk(profile.head, []);
  const size = (bytes: number) =>
    requests
      ? `${(bytes / 1024 / requests).toFixed(1).padStart(7)} KB/request`
      : `${(bytes / 1048576).toFixed(1).padStart(7)} MB`;
  const rows = (title: string, entries: Map<string, number>, count: number) =>
    [
      title,
      ...[...entries]
        .sort((a, b) => b[1] - a[1])
        .slice(0, count)
        .map(
          ([name, bytes]) => `  ${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${size(bytes)}  ${name}`,
        ),
    ].join('\n');
  return [
    `allocated: ${(total / 1048576).toFixed(0)} MB${requests ? ` over ${requests} requests, ${(total / 1024 / requests).toFixed(1)} KB per request` : ''}`,
    rows('allocations by layer (innermost layer on the stack):', layers, limit),
    rows('allocations by function (self):', functions, limit),
  ].join('\n\n');
}

function newestProfile(): string {
  const dir = join(benchDataDir(), 'profiles');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!files[0]) throw new Error(`no .cpuprofile in ${dir}; run npm run bench -- --profile first`);
  return files[0];
}

if (require.main === module) {
  // npm run bench:profile [-- <file.cpuprofile> [<requests the scenario served, for the per-request allocations>]]
  const file = process.argv[2] ? resolve(process.argv[2]) : newestProfile();
  const requests = process.argv[3] ? Number(process.argv[3]) : undefined;
  console.log(`profile: ${file}\n`);
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile));
  const heapFile = file.replace(/\.cpuprofile$/, '.heapprofile');
  if (existsSync(heapFile)) {
    console.log(`\nallocation profile: ${heapFile}\n`);
    console.log(summariseAllocations(JSON.parse(readFileSync(heapFile, 'utf8')) as HeapProfile, requests));
  }
}
