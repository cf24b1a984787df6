import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** test/fixtures/original-client-results: the original client's genuine result bodies (see its README). */
export const GENUINE_DIR = join(__dirname, '..', 'fixtures', 'original-client-results');

export interface GenuineBody {
  file: string;
  body: { result: Record<string, unknown> };
  /** The response the capture got (the README says which were refused then, and why). */
  response: { status: number; body: unknown };
}

export function genuineBodies(): GenuineBody[] {
  const responses = JSON.parse(readFileSync(join(GENUINE_DIR, 'responses.json'), 'utf8')) as Record<
    string,
    GenuineBody['response']
  >;
  return readdirSync(GENUINE_DIR)
    .filter((file) => file.endsWith('.json') && file !== 'responses.json')
    .sort()
    .map((file) => ({
      file,
      body: JSON.parse(readFileSync(join(GENUINE_DIR, file), 'utf8')) as GenuineBody['body'],
      response: responses[file] as GenuineBody['response'],
    }));
}
