import type { IncomingMessage } from 'node:http';
import { requestIdOf } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function raw(headers: Record<string, string | string[]>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe('requestIdOf', () => {
  it.each([['abc-123'], ['0f8fad5b-d9cb-469f-a165-70867728950e'], ['edge.lb:42_x'], ['a'.repeat(128)]])(
    'honours the sane incoming id %s',
    (id) => {
      const req = raw({ 'x-request-id': id });
      expect(requestIdOf(req)).toBe(id);
    },
  );

  it.each([[''], ['a'.repeat(129)], ['has space'], ['line\nbreak'], ['{"json":1}'], ['ünï']])(
    'replaces the insane incoming id %j with a UUID',
    (id) => {
      expect(requestIdOf(raw({ 'x-request-id': id }))).toMatch(UUID);
    },
  );

  it('makes a fresh UUID per request when none (or a repeated header) is sent', () => {
    const a = requestIdOf(raw({}));
    const b = requestIdOf(raw({ 'x-request-id': ['x', 'y'] }));
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });
});
