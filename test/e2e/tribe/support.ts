import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { TribeTimings } from '../../../src/modules/tribe/domain/limits';
import { openedByTest } from '../../support/file-resources';
import { clientRoomConfig } from '../../../generators/tribe-room-config';
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app';

export type Client = Socket;

/** Room timers short enough for tests; the flow is the same as with the defaults. */
export const FAST_TIMINGS: Partial<TribeTimings> = {
  initMs: 200,
  countdownSeconds: 2,
  finishSeconds: 2,
  awaitResultsMs: 1_000,
  readySeconds: 2,
  updateRateMs: 200,
  schedulerPollMs: 20,
  timerLeaseMs: 1_000,
  heartbeatMs: 300,
  deadAfterMs: 1_500,
  housekeepingMs: 1_000,
};

export interface TribeTestApp extends TestApp {
  /** `http://127.0.0.1:<port>` of the listening app. */
  url: string;
}

/** The whole application with Tribe enabled, listening on a free port (sockets need a real server). */
export async function createTribeApp(
  options: TestAppOptions & { timings?: Partial<TribeTimings> } = {},
): Promise<TribeTestApp> {
  const { timings, ...rest } = options;
  const t = await createTestApp({
    ...rest,
    env: { ...rest.env, tribe: { ...rest.env?.tribe, timings: { ...FAST_TIMINGS, ...timings } } },
    configuration: { tribe: { mode: 'enabled' }, ...rest.configuration },
  });
  await t.app.listen(0, '127.0.0.1');
  const port = (t.app.getHttpServer().address() as AddressInfo).port;
  return Object.assign(t, { url: `http://127.0.0.1:${port}` });
}

export interface ConnectOptions {
  name?: string;
  token?: string;
  /** Polling first, as a browser's client does by default; websocket only otherwise. */
  polling?: boolean;
  path?: string;
}

/** socket.io clients of one test file, closed together (`closeAll` in `afterAll`, or the leak guard complains). */
export class Clients {
  private readonly open = new Set<Client>();
  private readonly closed = openedByTest('Tribe clients (Clients)', async () => this.closeAll());

  /**
   * Connects and waits until the server said which name the player goes by (its first message), or rejects with the
   * server's refusal.
   */
  async connect(url: string, options: ConnectOptions = {}): Promise<Client> {
    const socket = this.socket(url, options);
    await new Promise<void>((resolve, reject) => {
      socket.once('user_update_name', () => resolve());
      socket.once('connect_error', (e) => reject(e));
    });
    return socket;
  }

  socket(url: string, options: ConnectOptions = {}): Client {
    const socket = io(url, {
      path: options.path ?? '/socket.io',
      forceNew: true,
      reconnection: false,
      transports: options.polling ? ['polling', 'websocket'] : ['websocket'],
      query: { name: options.name ?? 'Guest' },
      ...(options.token ? { auth: { token: options.token } } : {}),
    });
    this.open.add(socket);
    return socket;
  }

  /**
   * Disconnects every client so far and gives the server a moment to see it (the file goes on; each address may hold
   * only so many connections).
   */
  async disconnectAll(): Promise<void> {
    const any = this.open.size > 0;
    for (const socket of this.open) socket.disconnect();
    this.open.clear();
    if (any) await sleep(150);
  }

  /** Disconnects every client, for good (`afterAll`). */
  async closeAll(): Promise<void> {
    await this.disconnectAll();
    this.closed();
  }
}

/** The next `event` (matching `where`), within `timeoutMs`. */
export function next<T = unknown>(
  socket: Client,
  event: string,
  where: (data: T) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (data: T) => {
      if (!where(data)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(data);
    };
    socket.on(event, listener);
  });
}

/** Every `event` received from now on, in order. */
export function record<T = unknown>(socket: Client, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (data: T) => seen.push(data));
  return seen;
}

/** Emits with an acknowledgement and waits for it. */
export async function ask<T = unknown>(socket: Client, event: string, ...args: unknown[]): Promise<T> {
  return (await socket.timeout(5_000).emitWithAck(event, ...args)) as T;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The config the client sends with `room_create`: words 10 by default here, so a test race is short. */
export function roomConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return clientRoomConfig({ mode: 'words', words: 10, ...overrides });
}
