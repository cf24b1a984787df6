import 'reflect-metadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultServerConfiguration } from '../src/config/server-configuration.schema';
import { exceedsJsonDepth } from '../src/common/validation/json-limits';
import { AppValidationPipe } from '../src/common/validation/validation.pipe';
import { judgeResult } from '../src/modules/results/domain/judge';
import { normaliseResult } from '../src/modules/results/domain/normalise';
import { resultHash } from '../src/modules/results/domain/result-hash';
import { keyTimingStats } from '../src/modules/results/domain/stored-result';
import type { CompletedResultDto } from '../src/modules/results/dto/completed-result.dto';
import { SubmitResultPipe } from '../src/modules/results/dto/submit-result.pipe';
import { Random, submitBody } from './scenarios/result-body';

/**
 * Micro-benchmark of the CPU a `POST /results` body costs our server before any store I/O, step by step, on the
 * bench's bodies (scenario 1's) and on the original client's genuine ones (`node dist/bench/submission-micro.js
 * [--floor-rps N]` after `npm run bench`'s build). The floor (bench/baseline) parses the body too, but validates,
 * hashes and judges nothing: the steps after the parse are work only ours does, and the spec requires each of them
 * (422 with class-validator's messages, the 461 hash check, the anti-cheat).
 *
 * With `--floor-rps`, the floor's scenario 1 requests/s on this 2-core machine, it also prints the budget the 0.80
 * target leaves ours: the machine's whole CPU per floor submission (2 cores ÷ requests/s) over 0.80, minus itself.
 */
const { values } = parseArgs({ options: { 'floor-rps': { type: 'string' } } });
const floorRps = values['floor-rps'] === undefined ? undefined : Number(values['floor-rps']);
if (floorRps !== undefined && !(floorRps > 0)) throw new Error('--floor-rps must be a positive number');

const GENUINE_DIR = join(__dirname, '..', '..', 'test', 'fixtures', 'original-client-results');
const UID = 'bench00000000000000000000000';

interface Body {
  name: string;
  text: string;
  uid: string;
}

const rng = new Random(42);
const now = Date.now();
const benchBodies: Body[] = Array.from({ length: 200 }, (_, i) => {
  const uid = `bench${String(i).padStart(23, '0')}`;
  return { name: `bench ${i}`, text: submitBody(rng, uid, now), uid };
});
const genuineBodies: Body[] = readdirSync(GENUINE_DIR)
  .filter((file) => file.endsWith('.json') && file !== 'responses.json')
  .sort()
  .map((file) => {
    const text = JSON.stringify(JSON.parse(readFileSync(join(GENUINE_DIR, file), 'utf8')));
    const uid = (JSON.parse(text) as { result: { uid?: string } }).result.uid ?? UID;
    return { name: file, text, uid };
  });

const config = defaultServerConfiguration().results;
const globalPipe = new AppValidationPipe();
const submitPipe = new SubmitResultPipe();

interface Prepared {
  text: string;
  uid: string;
  parsed: { result: Record<string, unknown> };
  result: CompletedResultDto;
}

function prepare(body: Body): Prepared {
  const parsed = JSON.parse(body.text) as Prepared['parsed'];
  const dto = submitPipe.transform(globalPipe.transform(parsed, { type: 'body', metatype: Object }));
  const result = normaliseResult(dto.result as CompletedResultDto);
  const verdict = judgeResult(
    result,
    { optedOut: false, received: { body: parsed.result, uid: body.uid } },
    config,
  );
  // A body the judge refused would stop it early and time less than the work of a stored result.
  if (verdict.outcome === 'refuse') {
    throw new Error(`${body.name}: refused ${verdict.refusal.status} (${verdict.refusal.check})`);
  }
  return { text: body.text, uid: body.uid, parsed, result };
}

function time(list: Prepared[], run: (p: Prepared) => unknown): number {
  for (let i = 0; i < 2000; i++) run(list[i % list.length]!);
  const n = 20_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) run(list[i % list.length]!);
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

const withoutHash = { ...config, objectHashCheckEnabled: false };
const STEPS: { name: string; oursOnly: boolean; run: (p: Prepared) => unknown }[] = [
  { name: 'JSON.parse (the floor too)', oursOnly: false, run: (p) => JSON.parse(p.text) },
  { name: 'depth scan', oursOnly: true, run: (p) => exceedsJsonDepth(p.text) },
  {
    name: 'validation (both pipes)',
    oursOnly: true,
    run: (p) => submitPipe.transform(globalPipe.transform(p.parsed, { type: 'body', metatype: Object })),
  },
  { name: 'normalise', oursOnly: true, run: (p) => normaliseResult(p.result) },
  {
    name: 'result hash (461)',
    oursOnly: true,
    run: (p) => {
      const { hash: _hash, ...rest } = p.parsed.result;
      return resultHash({ ...rest, uid: p.uid });
    },
  },
  {
    name: 'judge without the hash',
    oursOnly: true,
    run: (p) => judgeResult(p.result, { optedOut: false }, withoutHash),
  },
  { name: 'key timing statistics', oursOnly: true, run: (p) => keyTimingStats(p.result) },
];

for (const [label, bodies] of [
  ['scenario 1 bodies', benchBodies],
  ['genuine bodies', genuineBodies],
] as const) {
  const list = bodies.map(prepare);
  const keys = list.reduce(
    (sum, p) => sum + (p.result.keySpacing?.length ?? 0) + (p.result.keyDuration?.length ?? 0),
    0,
  );
  const bytes = list.reduce((sum, p) => sum + p.text.length, 0);
  console.log(
    `${label}: ${list.length}, ${(bytes / list.length / 1024).toFixed(1)} KB and ${(keys / list.length).toFixed(0)} key timings on average`,
  );
  let oursOnly = 0;
  for (const step of STEPS) {
    const us = time(list, step.run);
    if (step.oursOnly) oursOnly += us;
    console.log(`  ${step.name.padEnd(30)} ${us.toFixed(1).padStart(7)} µs`);
  }
  console.log(`  ${'ours only, in all'.padEnd(30)} ${oursOnly.toFixed(1).padStart(7)} µs`);
}

if (floorRps !== undefined) {
  const floorMs = 2000 / floorRps;
  const budgetUs = (floorMs / 0.8 - floorMs) * 1000;
  console.log(
    `the 0.80 target: the floor's ${floorRps}/s is ${floorMs.toFixed(2)} ms of the 2 cores per submission, so ours ` +
      `may add at most ${budgetUs.toFixed(0)} µs of CPU per submission (server, stores and load generator together)`,
  );
}
