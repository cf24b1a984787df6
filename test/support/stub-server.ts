import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { openedByTest } from './file-resources';

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type StubHandler = (
  req: StubRequest,
) =>
  | { status?: number; json?: unknown; text?: string }
  | Promise<{ status?: number; json?: unknown; text?: string }>;

export interface StubServer {
  url: string;
  /** Every request received, in order. */
  requests: StubRequest[];
  /** Replace the handler (per test). */
  handle(handler: StubHandler): void;
  close(): Promise<void>;
}

/**
 * A local HTTP server standing in for a third-party service (captcha provider, chat platform, mail relay) whose real
 * adapter takes its base URL from the environment.
 */
export async function startStubServer(
  handler: StubHandler = () => ({ status: 404, json: {} }),
): Promise<StubServer> {
  let current = handler;
  const requests: StubRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request: StubRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(request);
      void Promise.resolve(current(request)).then((answer) => {
        res.statusCode = answer.status ?? 200;
        if (answer.json !== undefined) {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(answer.json));
        } else {
          res.end(answer.text ?? '');
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  const closed = openedByTest('stub HTTP server (startStubServer)', stop);
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle: (h) => (current = h),
    close: () => {
      closed();
      return stop();
    },
  };
}
