import { clientAddress } from './client-address';

const request = (peer: string, forwarded?: string) => ({
  socket: { remoteAddress: peer },
  headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
});

describe('clientAddress (as Fastify’s trustProxy reads it)', () => {
  it.each<[string, ReturnType<typeof request>, boolean | number, string]>([
    ['no proxy trusted: the peer', request('10.0.0.1', '203.0.113.9'), false, '10.0.0.1'],
    ['every hop trusted: the farthest', request('10.0.0.1', '203.0.113.9, 10.0.0.2'), true, '203.0.113.9'],
    ['one hop trusted', request('10.0.0.1', '198.51.100.7, 203.0.113.9'), 1, '203.0.113.9'],
    ['two hops trusted', request('10.0.0.1', '198.51.100.7, 203.0.113.9'), 2, '198.51.100.7'],
    ['more hops trusted than there are', request('10.0.0.1', '203.0.113.9'), 5, '203.0.113.9'],
    ['trusted, but no header', request('10.0.0.1'), true, '10.0.0.1'],
  ])('%s', (_, req, trust, expected) => {
    expect(clientAddress(req as never, trust)).toBe(expected);
  });
});
