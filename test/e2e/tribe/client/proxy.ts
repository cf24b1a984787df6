import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';

function hostAndPort(target: string): { host: string; port: number } {
  const at = target.lastIndexOf(':');
  return { host: target.slice(0, at), port: Number(target.slice(at + 1)) };
}

/**
 * A small HTTP proxy for one browser: everything goes where it was addressed, except the hosts in `reroute`, which
 * go to another address (plain requests, WebSocket upgrades, and CONNECT tunnels alike). The Tribe address is baked
 * into the client's build; this is how the second browser reaches the second replica without changing the client.
 */
export interface Proxy {
  url: string;
  /** Requests and tunnels (WebSocket upgrades, CONNECT) sent elsewhere so far. */
  rerouted: { requests: number; tunnels: number };
  close(): Promise<void>;
}

export async function startProxy(reroute: Record<string, string>): Promise<Proxy> {
  const sockets = new Set<Socket>();
  const rerouted = { requests: 0, tunnels: 0 };
  const destination = (host: string, kind: 'requests' | 'tunnels') => {
    const target = reroute[host];
    if (target === undefined) return hostAndPort(host);
    rerouted[kind] += 1;
    return hostAndPort(target);
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/');
    const { host, port } = destination(url.host, 'requests');
    const upstream = request(
      { host, port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const tunnel = (req: IncomingMessage, client: Socket, head: Buffer, target: string, raw: boolean) => {
    const { host, port } = destination(target, 'tunnels');
    const upstream = connect(port, host, () => {
      if (raw) {
        const url = new URL(req.url ?? '/');
        const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2)
          lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      } else client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  };
  server.on('connect', (req, client: Socket, head: Buffer) =>
    tunnel(req, client, head, req.url ?? '', false),
  );
  server.on('upgrade', (req, client: Socket, head: Buffer) =>
    tunnel(req, client, head, new URL(req.url ?? '/').host, true),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    rerouted,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
