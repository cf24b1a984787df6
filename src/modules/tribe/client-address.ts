import type { IncomingMessage } from 'node:http';

/**
 * The client's address, as Fastify's `trustProxy` reads it for the HTTP API (proxy-addr's rule): the socket's peer,
 * then the `X-Forwarded-For` entries from the nearest proxy outwards, stopping at the first hop not trusted
 * (`true`: every hop is trusted, a number: that many hops, `false`: none, the peer is the client).
 */
export function clientAddress(
  request: Pick<IncomingMessage, 'headers' | 'socket'>,
  trustProxy: boolean | number,
): string {
  const peer = request.socket?.remoteAddress ?? 'unknown';
  if (trustProxy === false || trustProxy === 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .reverse();
  const chain = [peer, ...forwarded];
  for (let i = 0; i < chain.length - 1; i++) {
    const trusted = trustProxy === true || i < trustProxy;
    if (!trusted) return chain[i] as string;
  }
  return chain[chain.length - 1] as string;
}
