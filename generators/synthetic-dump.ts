import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import { BSON, Int32, Long, ObjectId } from 'bson';

export interface SyntheticDumpSize {
  users: number;
  resultsPerUser: number;
}

/** A small deterministic PRNG (mulberry32), so the same size gives the same dump. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.UTC(2024, 0, 1);
const oid = (seconds: number, counter: number) =>
  new ObjectId(seconds.toString(16).padStart(8, '0') + counter.toString(16).padStart(16, '0'));

async function writeCollection(path: string, docs: Iterable<Record<string, unknown>>): Promise<number> {
  const out = createWriteStream(path, { highWaterMark: 1024 * 1024 });
  let count = 0;
  for (const doc of docs) {
    count++;
    if (!out.write(BSON.serialize(doc))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return count;
}

/**
 * A mongodump directory of the original platform with `users` accounts (personal bests, a tag, a config, an ApeKey
 * for every tenth) and `resultsPerUser` results each, written document by document (flat memory at any size).
 * Results are in `_id` (time) order with the users interleaved, as a live database accumulates them.
 */
export async function writeSyntheticDump(dir: string, size: SyntheticDumpSize, seed = 7): Promise<void> {
  await mkdir(dir, { recursive: true });
  const rand = random(seed);
  const uid = (i: number) => `synthetic${String(i).padStart(8, '0')}`;
  const pb = (wpm: number, timestamp: number) => ({
    acc: 90 + rand() * 10,
    consistency: 60 + rand() * 30,
    difficulty: 'normal',
    language: 'english',
    punctuation: false,
    numbers: false,
    lazyMode: false,
    raw: wpm + 4,
    wpm,
    timestamp,
  });
  function* users() {
    for (let i = 0; i < size.users; i++) {
      const added = START + i * 1000;
      const wpm15 = Math.round(40 + rand() * 120);
      const wpm60 = Math.round(35 + rand() * 110);
      yield {
        _id: oid(Math.floor(added / 1000), i),
        uid: uid(i),
        name: `user${i}`,
        email: `user${i}@example.test`,
        addedAt: added,
        personalBests: {
          time: { '15': [pb(wpm15, added)], '60': [pb(wpm60, added)] },
          words: { '25': [pb(wpm15 - 5, added)] },
          quote: {},
          zen: {},
          custom: {},
        },
        lbPersonalBests: {
          time: { '15': { english: pb(wpm15, added) }, '60': { english: pb(wpm60, added) } },
        },
        completedTests: new Int32(size.resultsPerUser),
        startedTests: new Int32(size.resultsPerUser + 3),
        timeTyping: 3000 + rand() * 20000,
        xp: Long.fromNumber(Math.round(rand() * 100000)),
        streak: { length: 1, maxLength: 5, lastResultTimestamp: added },
        tags: [
          { _id: oid(Math.floor(added / 1000), 1_000_000_000 + i), name: 'practice', personalBests: {} },
        ],
        testActivity: { '2024': [null, 1, 2] },
        lbOptOut: i % 50 === 0,
      };
    }
  }
  function* results() {
    let counter = 0;
    for (let j = 0; j < size.resultsPerUser; j++) {
      for (let i = 0; i < size.users; i++) {
        const timestamp = START + 86_400_000 * 30 + counter * 1000;
        const wpm = Math.round((40 + rand() * 120) * 100) / 100;
        yield {
          _id: oid(Math.floor(timestamp / 1000), counter++),
          uid: uid(i),
          wpm,
          rawWpm: wpm + 3,
          charStats: [Math.round(wpm * 1.25 * 5), 3, 0, 1],
          acc: Math.round((90 + rand() * 10) * 100) / 100,
          mode: 'time',
          mode2: j % 2 === 0 ? '15' : '60',
          timestamp,
          testDuration: j % 2 === 0 ? 15.02 : 60.01,
          consistency: 75.5,
          keyConsistency: 55.2,
          chartData: {
            wpm: [wpm - 5, wpm, wpm + 2, wpm],
            burst: [100, 110, 105, 98],
            err: [0, 1, 0, 0],
          },
          keySpacingStats: { average: 90.5, sd: 30.1 },
          keyDurationStats: { average: 80.2, sd: 20.4 },
          name: `user${i}`,
          ...(j === 0 ? { isPb: true } : {}),
        };
      }
    }
  }
  function* configs() {
    for (let i = 0; i < size.users; i += 2)
      yield {
        _id: oid(1_700_000_000, i),
        uid: uid(i),
        config: { punctuation: i % 4 === 0, theme: 'serika_dark' },
      };
  }
  function* apeKeys() {
    for (let i = 0; i < size.users; i += 10)
      yield {
        _id: oid(1_700_000_000, 5_000_000_000 + i),
        uid: uid(i),
        name: 'bot',
        enabled: true,
        hash: '$2b$05$abcdefghijklmnopqrstuu6Yv0hDyk0Vw0G3J9Vv5kq3lq0m7t7yW',
        createdOn: 1_700_000_000_000,
        modifiedOn: 1_700_000_000_000,
        lastUsedOn: -1,
        useCount: 0,
      };
  }
  await writeCollection(join(dir, 'users.bson'), users());
  await writeCollection(join(dir, 'results.bson'), results());
  await writeCollection(join(dir, 'configs.bson'), configs());
  await writeCollection(join(dir, 'ape-keys.bson'), apeKeys());
  await writeFile(join(dir, 'dump-size.txt'), JSON.stringify(size));
}
