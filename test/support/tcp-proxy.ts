import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { openedByTest } from './file-resources';

export interface TcpProxy {
  port: number;
  /** Closes every open connection and refuses new ones (as a server that went away). */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy to `target`, for fault tests: cutting it is a store becoming unreachable without touching the
 * shared test server, deterministically and at once.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const open = (port: number): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer((client) => {
        const upstream = createConnection(target);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  let server: Server | null = await open(0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  const cut = async () => {
    const closing = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  const closed = openedByTest('TCP proxy (startTcpProxy)', cut);
  return {
    port,
    cut,
    async restore() {
      server ??= await open(port);
    },
    close: () => {
      closed();
      return cut();
    },
  };
}
