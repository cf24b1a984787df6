import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { freePort } from '../../src/infra/embedded/free-port';
import { clientRoomConfig } from '../../generators/tribe-room-config';
import { runLoad, type LoadResult } from '../lib/load';
import { ProcessSampler, startServerProcess, type ServerProcess } from '../lib/server-process';
import type { BenchContext, ScenarioRow } from './context';

/** Players per room (a full race of the client's), and the client's own progress rate (`updateRate`). */
const PLAYERS_PER_ROOM = 8;
/** HTTP connections of the API load run beside the races: the Tribe pages' own reads, not a saturation test. */
const HTTP_CONNECTIONS = 8;

export interface TribeOptions {
  rooms: number;
  /** The environment our server was started with (the second replica gets the same, on its own port). */
  serverEnv: Record<string, string>;
  script: string;
  nodeArgs: string[];
  logDir: string;
}

interface Player {
  socket: Socket;
  replica: 0 | 1;
  room: number;
  seq: number;
  sentAt: Map<number, number>;
  racing: boolean;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;
}

function connect(url: string, name: string, address: string): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    query: { name },
    // Every simulated player from its own address (the server trusts X-Forwarded-For in the benchmark).
    extraHeaders: { 'x-forwarded-for': address },
  });
  return new Promise((resolve, reject) => {
    socket.once('user_update_name', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function once<T>(socket: Socket, event: string, timeoutMs = 30_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (data: T) => {
      clearTimeout(timer);
      resolve(data);
    });
  });
}

/** The API the Tribe pages call besides the socket (`GET /configuration`, `GET /psas`), on replica A. */
function httpLoad(context: BenchContext, server: ServerProcess): Promise<LoadResult> {
  let i = 0;
  return runLoad({
    url: server.url,
    pid: server.pid,
    connections: HTTP_CONNECTIONS,
    duration: context.duration,
    next: () => ({ method: 'GET', path: i++ % 2 === 0 ? '/configuration' : '/psas' }),
  });
}

/**
 * Scenario 12 (Tribe): `rooms` rooms of 8 players racing on two replicas (players alternate between them), each
 * player answering every progress tick as the client does (twice a second), and each room's leader chatting once a
 * second. Measured over `--duration` seconds once every race runs: connections per replica; the latency from a
 * player's progress update to the other members seeing it (it waits for the room's next tick, so up to one update
 * period is by design) and of a chat message relayed to them; the regularity of the ticks; CPU and memory per
 * connection of each replica; and `GET /configuration` + `GET /psas` on replica A, alone and beside the races.
 */
export async function tribeScenario(context: BenchContext, options: TribeOptions): Promise<ScenarioRow[]> {
  const a = context.servers.ours;
  context.log(`scenario 12: Tribe, ${options.rooms} rooms of ${PLAYERS_PER_ROOM} on two replicas ...`);
  const port = await freePort();
  const b = await startServerProcess({
    name: 'our second replica',
    script: options.script,
    url: `http://127.0.0.1:${port}`,
    readyPath: '/',
    env: { ...options.serverEnv, PORT: String(port) },
    logFile: join(options.logDir, 'server-b.log'),
    nodeArgs: options.nodeArgs,
  });
  const replicas = [a, b];
  const players: Player[] = [];
  try {
    const rssBefore = replicas.map((r) => ProcessSampler.readKb(r.pid) ?? 0);

    // Rooms: the leader creates it, the others join and get ready, the leader starts a timed race that outlasts
    // the measurement.
    const seconds = Math.ceil(context.duration + 15);
    for (let room = 0; room < options.rooms; room++) {
      let roomId = '';
      for (let seat = 0; seat < PLAYERS_PER_ROOM; seat++) {
        const replica = ((room + seat) % 2) as 0 | 1;
        const address = `10.${(room >> 8) & 255}.${room & 255}.${seat + 1}`;
        const socket = await connect(replicas[replica]!.url, `p${room}_${seat}`, address);
        const player: Player = { socket, replica, room, seq: 0, sentAt: new Map(), racing: false };
        players.push(player);
        if (seat === 0) {
          const joined = once<{ room: { id: string } }>(socket, 'room_joined');
          socket.emit('room_create', {
            config: clientRoomConfig({ time: seconds }),
          });
          roomId = (await joined).room.id;
        } else {
          await socket.timeout(10_000).emitWithAck('room_join', { roomId });
          socket.emit('room_ready_update');
        }
      }
    }
    const perReplica = [0, 1].map((r) => players.filter((p) => p.replica === r).length);
    context.log(
      `scenario 12: ${players.length} players connected (${perReplica.join(' + ')}), starting the races`,
    );

    // The client's progress loop: every tick is answered with the player's figures while its test runs.
    const progressLatency: number[] = [];
    const chatLatency: number[] = [];
    const tickGaps: number[] = [];
    let measuring = false;
    const byRoom = new Map<number, Player[]>();
    for (const p of players) byRoom.set(p.room, [...(byRoom.get(p.room) ?? []), p]);
    const idOf = new Map(players.map((p) => [p.socket.id as string, p]));
    for (const p of players) {
      let lastTick = 0;
      const seen = new Map<string, number>();
      p.socket.on('room_race_started', () => (p.racing = true));
      p.socket.on('room_progress_update', (update: { users: Record<string, { wordIndex: number }> }) => {
        const now = performance.now();
        if (measuring && lastTick > 0 && p.room % 5 === 0 && p.replica === 0) tickGaps.push(now - lastTick);
        lastTick = now;
        for (const [id, figures] of Object.entries(update.users)) {
          if (id === p.socket.id || figures.wordIndex === (seen.get(id) ?? 0)) continue;
          seen.set(id, figures.wordIndex);
          const sentAt = idOf.get(id)?.sentAt.get(figures.wordIndex);
          if (measuring && sentAt !== undefined) progressLatency.push(now - sentAt);
        }
        if (!p.racing) return;
        p.seq += 1;
        p.sentAt.set(p.seq, performance.now());
        p.sentAt.delete(p.seq - 50);
        p.socket.emit('room_progress_update', {
          wpm: 60 + (p.seq % 40),
          raw: 65 + (p.seq % 40),
          acc: 97,
          progress: Math.min(100, p.seq),
          wordIndex: p.seq,
          letterIndex: p.seq % 7,
          afk: false,
        });
      });
      p.socket.on('room_chat_message', (message: { message: string; from?: { id: string } }) => {
        const match = /^ping(\d+)$/.exec(message.message);
        if (measuring && match && message.from?.id !== p.socket.id)
          chatLatency.push(performance.now() - Number(match[1]) / 1000);
      });
    }
    const started = Promise.all(players.map((p) => once(p.socket, 'room_race_started', 30_000)));
    for (const [, members] of byRoom) members[0]!.socket.emit('room_init_race');
    await started;
    // Every racer's timer has started and the ticks have settled.
    await new Promise((r) => setTimeout(r, 2_000));

    // First the races alone (what a connection costs), then the same with the API load beside them, then the API
    // alone once every player has left (after the races, so that its garbage and warm-up land on no race figure).
    measuring = true;
    const chat = setInterval(() => {
      for (const [, members] of byRoom)
        members[0]!.socket.emit('room_chat_message', {
          message: `ping${Math.round(performance.now() * 1000)}`,
        });
    }, 1_000);
    await context.profiler?.start(a);
    const samplers = replicas.map((r) => new ProcessSampler(r.pid));
    for (const s of samplers) s.start();
    const received = players.reduce((n, p) => n + p.seq, 0);
    const windowStart = performance.now();
    await new Promise((r) => setTimeout(r, context.duration * 1000));
    // The real length (a busy load generator fires its timers late).
    const windowSeconds = (performance.now() - windowStart) / 1000;
    const usage = samplers.map((s) => s.stop());
    const sent = players.reduce((n, p) => n + p.seq, 0);
    await context.profiler?.stop(a, '12-tribe');
    const beside = await httpLoad(context, a);
    clearInterval(chat);
    measuring = false;
    for (const p of players) p.socket.disconnect();
    await new Promise((r) => setTimeout(r, 2_000));
    const alone = await httpLoad(context, a);
    const progressMessages = sent - received;
    const rssAfter = usage.map((u) => (u.rssMb ?? 0) * 1024);

    progressLatency.sort((x, y) => x - y);
    chatLatency.sort((x, y) => x - y);
    tickGaps.sort((x, y) => x - y);
    const cpuSeconds = usage.reduce((n, u) => n + (u.cpuSeconds ?? 0), 0);
    const perConnection = [0, 1].map((r) => ({
      connections: perReplica[r] as number,
      cpuMsPerSecond:
        ((usage[r]?.cpuSeconds ?? 0) * 1000) / windowSeconds / Math.max(perReplica[r] as number, 1),
      kbPerConnection:
        ((rssAfter[r] as number) - (rssBefore[r] as number)) / Math.max(perReplica[r] as number, 1),
    }));
    const tribe: LoadResult = {
      requests: progressMessages,
      requestsPerSecond: progressMessages / windowSeconds,
      p50: percentile(progressLatency, 0.5),
      p99: percentile(progressLatency, 0.99),
      errors: 0,
      statuses: {},
      errorSamples: {},
      rssMb: Math.max(...usage.map((u) => u.rssMb ?? 0)),
      cpuMsPerRequest: progressMessages > 0 ? (cpuSeconds * 1000) / progressMessages : null,
      postgresCpuMsPerRequest: null,
    };
    const note =
      `${players.length} connections (${perReplica.join(' on A, ')} on B); requests/s = progress updates in, CPU ` +
      `and RSS over ${windowSeconds.toFixed(1)} s of races alone; p50/p99 = a player's update seen by the others ` +
      `(${progressLatency.length} samples; the client sends it in answer to a tick and the others see it at the next ` +
      `one, so one 500 ms period is the protocol's); chat relayed p50 ${percentile(chatLatency, 0.5).toFixed(1)} / p99 ` +
      `${percentile(chatLatency, 0.99).toFixed(1)} ms (${chatLatency.length}); tick gaps p50 ` +
      `${percentile(tickGaps, 0.5).toFixed(0)} / p99 ${percentile(tickGaps, 0.99).toFixed(0)} ms; per connection: ` +
      perConnection
        .map(
          (c, i) =>
            `${i === 0 ? 'A' : 'B'} ${c.cpuMsPerSecond.toFixed(2)} CPU ms/s, ${c.kbPerConnection.toFixed(0)} KB RSS`,
        )
        .join('; ') +
      ` (both: ${((cpuSeconds * 1000) / windowSeconds / Math.max(players.length, 1)).toFixed(2)} CPU ms/s a connection)`;
    return [
      { id: '12-http', scenario: 'Tribe: GET /configuration + /psas alone', server: 'ours', result: alone },
      {
        id: '12-tribe',
        scenario: `Tribe: ${options.rooms} rooms x 8 racing`,
        server: 'ours',
        result: tribe,
        note,
      },
      {
        id: '12-http-beside',
        scenario: 'Tribe: GET /configuration + /psas beside the races',
        server: 'ours',
        result: beside,
      },
    ];
  } finally {
    for (const p of players) p.socket.disconnect();
    await b.stop();
  }
}
