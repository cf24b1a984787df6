import 'reflect-metadata';
import { validateSync } from 'class-validator';
import { AppValidationPipe } from '../src/common/validation/validation.pipe';
import { STRICT_OPTIONS, validateStrict } from '../src/common/validation/strict-validation';
import { SubmitResultPipe } from '../src/modules/results/dto/submit-result.pipe';
import { Random, submitBody } from './scenarios/result-body';

/**
 * Micro-benchmark of the `POST /results` body validation (`node dist/bench/validation-micro.js` after
 * `npm run bench`'s build): both pipes on 200 realistic bodies, and class-validator against the strict fast path.
 */
const rng = new Random(42);
const bodies = Array.from(
  { length: 200 },
  (_, i) =>
    JSON.parse(submitBody(rng, `bench${String(i).padStart(23, '0')}`, Date.now())) as Record<string, unknown>,
);
const globalPipe = new AppValidationPipe();
const submitPipe = new SubmitResultPipe();
const instances = bodies.map((b) => submitPipe.transform(b) as unknown as object);

function time(name: string, run: (i: number) => unknown): void {
  for (let i = 0; i < 3000; i++) run(i % bodies.length);
  const start = process.hrtime.bigint();
  const n = 20_000;
  for (let i = 0; i < n; i++) run(i % bodies.length);
  console.log(`${name.padEnd(36)} ${(Number(process.hrtime.bigint() - start) / n / 1000).toFixed(1)} µs`);
}

for (let round = 1; round <= 3; round++) {
  console.log(`round ${round}`);
  time('both pipes (global, then the route)', (i) =>
    submitPipe.transform(globalPipe.transform(bodies[i], { type: 'body', metatype: Object })),
  );
  time('class-validator validateSync', (i) => validateSync(instances[i]!, STRICT_OPTIONS));
  time('validateStrict (fast path)', (i) => validateStrict(instances[i]!));
}
