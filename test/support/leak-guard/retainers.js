// What keeps a test file in memory, read from a heap snapshot of the process it ran in alone (reporter.js runs this in
// a process of its own: `node retainers.js <snapshot> <file>` prints one JSON verdict). The file's global holds a
// `RetainedTestFile` naming it (test/support/environment.ts); the question is whether anything but Node's and jest's
// own objects holds it.
//
// Node gives every async resource (a timer, a socket, a promise) the AsyncLocalStorage stores current when it is made,
// for as long as it lives (`kResourceStore` properties up to Node 22, an AsyncContextFrame since 24). jest-circus (30)
// runs every test and hook inside a store of its own ({ describeBlock, hook, test }, made in the file's context, and
// through it the file's whole test tree), and an app adds its request stores (nestjs-pino's request logger). A
// resource of Node's that lives on thus keeps the file that was running when it was made, for the rest of the
// process: the shared timer of Node's bundled undici and the DNS resolver's channel, both made on the first fetch, did
// so in heap snapshots of files run alone. Nothing of the file is at fault there.
//
// V8 keeps things of a context in caches shared by the whole process: the feedback of a function of jest's (an
// allocation site's boilerplate object, whose getter's closure led to the file's test environment, in another snapshot
// of a file run alone), a map made in one context and shared with objects of another.
//
// So: the shortest path from the GC roots to the file, and whether the file is still reachable once the async-context
// edges and V8's caches are left out. Unreachable then: Node's and V8's own objects hold it ("theirs"). Reachable:
// something else holds it, a callback, a listener, an object of the file ("ours"), and the path shows what.
//
// Edges that hold nothing are left out throughout: weak ones, shortcuts, a WeakMap key's edge to its value (the table's
// own edge to the value is followed), a vm context's native side to its global (Node holds it weakly: a clean test
// file's context is collected while the edge is there, as every run of the guard shows), and the entries of an
// object's property backing store (the same references, followed as the object's named properties).
const { readFileSync } = require('node:fs');

const OWN_PROPERTIES = new Set(['system / PropertyArray', '(object properties)']);
const ASYNC_CONTEXT = new Set(['<symbol kResourceStore>', '<symbol kAsyncContextFrame>']);

function load(path) {
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  const meta = snapshot.snapshot.meta;
  const NF = meta.node_fields.length;
  const EF = meta.edge_fields.length;
  const f = (fields, name) => fields.indexOf(name);
  const g = {
    nodes: snapshot.nodes,
    edges: snapshot.edges,
    strings: snapshot.strings,
    nodeTypes: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    NF,
    EF,
    N: snapshot.nodes.length / NF,
    iType: f(meta.node_fields, 'type'),
    iName: f(meta.node_fields, 'name'),
    iId: f(meta.node_fields, 'id'),
    iEdges: f(meta.node_fields, 'edge_count'),
    eType: f(meta.edge_fields, 'type'),
    eName: f(meta.edge_fields, 'name_or_index'),
    eTo: f(meta.edge_fields, 'to_node'),
  };
  g.first = new Uint32Array(g.N + 1);
  for (let n = 0, e = 0; n < g.N; n++) {
    g.first[n] = e;
    e += g.nodes[n * NF + g.iEdges] * EF;
  }
  g.first[g.N] = g.edges.length;
  return g;
}

const nodeType = (g, n) => g.nodeTypes[g.nodes[n * g.NF + g.iType]];
const nodeName = (g, n) => g.strings[g.nodes[n * g.NF + g.iName]];
const edgeType = (g, e) => g.edgeTypes[g.edges[e + g.eType]];
const edgeName = (g, e) => {
  const t = edgeType(g, e);
  const v = g.edges[e + g.eName];
  return t === 'element' || t === 'hidden' ? `[${v}]` : String(g.strings[v]);
};
const target = (g, e) => g.edges[e + g.eTo] / g.NF;

function* out(g, n) {
  for (let e = g.first[n]; e < g.first[n + 1]; e += g.EF) yield e;
}

function property(g, n, name) {
  for (const e of out(g, n))
    if (edgeType(g, e) === 'property' && edgeName(g, e) === name) return target(g, e);
  return -1;
}

/** An edge that retains nothing (see the head of this file). */
function holdsNothing(g, n, e) {
  const t = edgeType(g, e);
  if (t === 'weak' || t === 'shortcut') return true;
  const name = edgeName(g, e);
  if (t === 'internal' && name.includes('part of key') && nodeType(g, n) !== 'array') return true;
  // An object's out-of-object properties, given once more from their backing store: followed as its named properties.
  if (OWN_PROPERTIES.has(nodeName(g, n)) && t !== 'internal') return true;
  return name === 'native_to_javascript' && nodeName(g, n).includes('ContextifyContext');
}

const V8_CACHES = new Set([
  'system / FeedbackVector',
  'system / FeedbackCell',
  'system / AllocationSite',
  'system / ClosureFeedbackCellArray',
]);

/** V8's own caches: feedback and allocation sites, and a map's constructor (maps are shared between contexts). */
function v8Cache(g, n, e) {
  const name = nodeName(g, n);
  if (V8_CACHES.has(name)) return true;
  return name === 'system / Map' && edgeName(g, e) === 'constructor';
}

/**
 * A resource's async context: the stores Node gave it when it was made (a `kResourceStore` property of the resource up
 * to Node 22; an AsyncContextFrame since 24, held in a property or in an internal field of a native handle).
 */
function asyncContext(g, e) {
  if (edgeType(g, e) === 'property' && ASYNC_CONTEXT.has(edgeName(g, e))) return true;
  return nodeName(g, target(g, e)) === 'AsyncContextFrame';
}

/** The native context whose global object holds `mark` (`<symbol retained test file>`); the mark when none does. */
function fileContext(g, mark) {
  const holders = new Set();
  for (let n = 0; n < g.N; n++) {
    for (const e of out(g, n)) {
      if (target(g, e) === mark && edgeName(g, e) === '<symbol retained test file>') holders.add(n);
    }
  }
  for (let n = 0; n < g.N; n++) {
    if (nodeName(g, n) !== 'system / NativeContext') continue;
    for (const e of out(g, n)) if (edgeName(g, e) === 'extension' && holders.has(target(g, e))) return n;
  }
  return mark;
}

/** Shortest path from the root to `goal`, the edges `skip` names left out too; null when unreachable. */
function pathTo(g, goal, skip) {
  const prev = new Int32Array(g.N).fill(-1);
  const via = new Int32Array(g.N).fill(-1);
  prev[0] = 0;
  const queue = new Uint32Array(g.N);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  while (head < tail) {
    const n = queue[head++];
    if (n === goal) break;
    for (const e of out(g, n)) {
      const to = target(g, e);
      if (prev[to] !== -1 || holdsNothing(g, n, e) || skip(g, n, e)) continue;
      prev[to] = n;
      via[to] = e;
      queue[tail++] = to;
    }
  }
  if (prev[goal] === -1) return null;
  const steps = [];
  for (let n = goal; n !== 0; n = prev[n]) steps.push(`--${edgeName(g, via[n])}--> ${describe(g, n)}`);
  return steps.reverse();
}

function describe(g, n) {
  const name = nodeName(g, n);
  return `${nodeType(g, n)} ${name.length > 60 ? `${name.slice(0, 60)}…` : name} @${g.nodes[n * g.NF + g.iId]}`;
}

/** { verdict: 'theirs' | 'ours' | 'unknown', reason, path } for the file named (relative path, as the guard gives). */
function whatKeeps(snapshotPath, file) {
  const g = load(snapshotPath);
  const marks = [];
  for (let n = 0; n < g.N; n++) {
    if (nodeType(g, n) === 'object' && nodeName(g, n) === 'RetainedTestFile') marks.push(n);
  }
  const named = marks.filter((n) => {
    const value = property(g, n, 'file');
    return value !== -1 && nodeName(g, value) === file;
  });
  const mark = named[0];
  if (mark === undefined)
    return { verdict: 'unknown', reason: `no RetainedTestFile of ${file} in the snapshot` };
  // The file's context (jest's objects may hold the mark itself, which is not of the file): the native context whose
  // global object holds the mark.
  const context = fileContext(g, mark);
  const shortest = pathTo(g, context, () => false);
  if (!shortest)
    return { verdict: 'unknown', reason: 'the file is not reachable in the snapshot (collected since?)' };
  const notAsync = pathTo(g, context, (_g, _n, e) => asyncContext(g, e));
  const past = notAsync && pathTo(g, context, (_g, n, e) => asyncContext(g, e) || v8Cache(g, n, e));
  if (past) return { verdict: 'ours', reason: 'held by more than Node’s and V8’s own objects', path: past };
  return {
    verdict: 'theirs',
    reason: notAsync
      ? 'held only through the async context Node gave resources that live on, and V8’s caches (feedback, allocation sites, shared maps)'
      : 'held only through the async context Node gave a resource that lives on (AsyncLocalStorage stores)',
    path: shortest,
    ...(notAsync ? { pathThroughV8: notAsync } : {}),
  };
}

module.exports = { whatKeeps };

if (require.main === module) {
  const [snapshot, file] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(whatKeeps(snapshot, file))}\n`);
}
