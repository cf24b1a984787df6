/**
 * `npm run test:tribe-client`: the original platform's own Tribe client, already built by the caller (its branch's
 * frontend with the server address pointed at ours; docs/tribe.md), driven by two headless Chromium browsers
 * against two replicas of our server. They create a room, join it by its code, race the same words and both reach
 * the results screen with positions. The client is not part of this repository and nothing here builds it.
 *
 *   TRIBE_CLIENT=<built client directory, or the URL where it is served> npm run test:tribe-client
 *
 * The build's API address must be `http://localhost:<TRIBE_CLIENT_API_PORT>` (5005 by default) and its Tribe address
 * the client's own choice for localhost, `http://localhost:<TRIBE_CLIENT_TRIBE_PORT>` (3005). Replica A listens on
 * both; replica B on ports of its own, and the second browser's socket traffic is routed there. Screenshots and a
 * summary go to TRIBE_CLIENT_OUT (a temporary directory by default).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import Redis from 'ioredis';
import { freePort } from '../../../../src/infra/embedded/free-port';
import { startProxy, type Proxy } from './proxy';
import { serveClient, startServers, type ServerStack } from './stack';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const started = Date.now();
const timings: { step: string; seconds: number }[] = [];
function log(line: string): void {
  process.stdout.write(`[tribe-client ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);
}
async function step<T>(name: string, work: () => Promise<T>): Promise<T> {
  const at = Date.now();
  const result = await work();
  timings.push({ step: name, seconds: (Date.now() - at) / 1000 });
  log(`${name}: ${((Date.now() - at) / 1000).toFixed(1)} s`);
  return result;
}

function target(): string | null {
  const given = process.argv[2] ?? process.env.TRIBE_CLIENT;
  return given && given.trim() !== '' ? given.trim() : null;
}

interface Player {
  name: string;
  context: BrowserContext;
  page: Page;
}

/** What the page script sees (this file is compiled without the DOM library). */
interface PageGlobals {
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document: {
    querySelectorAll(selector: string): Iterable<{ textContent: string | null }> & { length: number };
  };
}

async function openPlayer(name: string, profiles: string, proxy?: string): Promise<Player> {
  const context = await chromium.launchPersistentContext(join(profiles, name), {
    executablePath: CHROMIUM,
    headless: true,
    // This browser's traffic through a proxy that sends its Tribe address to another replica (`<-loopback>`: the
    // proxy is used for localhost too, which browsers bypass by default).
    args: proxy ? [...FLAGS, `--proxy-server=${proxy}`, '--proxy-bypass-list=<-loopback>'] : FLAGS,
    viewport: { width: 1400, height: 1000 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (e) => log(`${name} page error: ${e.message}`));
  // A returning visitor: cookies answered, a short test chosen (words, 10), and the Tribe name the client reads from
  // here before it connects (`tribe.ts`).
  await page.addInitScript((player) => {
    const storage = (globalThis as unknown as PageGlobals).localStorage;
    if (storage.getItem('tribeName') !== null) return;
    storage.setItem('acceptedCookies', JSON.stringify({ security: true, analytics: false, sentry: false }));
    storage.setItem('config', JSON.stringify({ mode: 'words', words: 10 }));
    storage.setItem('tribeName', player);
  }, name);
  return { name, context, page };
}

async function screenshot(player: Player, out: string, name: string): Promise<void> {
  await player.page.screenshot({ path: join(out, `${player.name}-${name}.png`) });
}

/** The words of the test on the page, in order. */
function wordsOnPage(page: Page): Promise<string[]> {
  return page.$$eval('#words .word', (words) =>
    words.map((w) => [...w.querySelectorAll('letter')].map((l) => l.textContent ?? '').join('')),
  );
}

/**
 * Waits for the countdown to end (the client starts its timer half a second after `room_race_started`), then types
 * the words as they come until the result screen shows. Returns the test's words as the page showed them.
 */
async function race(player: Player): Promise<string[]> {
  const page = player.page;
  await page.waitForSelector('#words .word.active', { timeout: 30_000 });
  await page.waitForSelector('.pageTest #typingTest .tribeCountdown2.hidden', {
    state: 'attached',
    timeout: 30_000,
  });
  await page.waitForTimeout(800);
  const words = await wordsOnPage(page);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (await page.locator('#result').isVisible()) return words;
    const word = await page
      .locator('#words .word.active')
      .evaluate((el) => [...el.querySelectorAll('letter')].map((l) => l.textContent ?? '').join(''))
      .catch(() => null);
    if (word === null || word === '') {
      await page.waitForTimeout(50);
      continue;
    }
    await page.keyboard.type(word, { delay: 30 });
    await page.keyboard.press('Space');
    await page.waitForTimeout(30);
  }
  throw new Error(`${player.name} did not reach the result screen within 2 minutes`);
}

async function main(): Promise<number> {
  const client = target();
  if (!client) {
    process.stderr.write(
      'test:tribe-client: no client given: set TRIBE_CLIENT (or pass an argument) to the built Tribe client directory or its URL (docs/tribe.md)\n',
    );
    return 2;
  }
  const apiPort = Number(process.env.TRIBE_CLIENT_API_PORT ?? 5005);
  const tribePort = Number(process.env.TRIBE_CLIENT_TRIBE_PORT ?? 3005);
  const out = process.env.TRIBE_CLIENT_OUT ?? mkdtempSync(join(tmpdir(), 'tribe-client-'));
  mkdirSync(out, { recursive: true });
  const profiles = mkdtempSync(join(tmpdir(), 'tribe-client-profiles-'));
  log(`client: ${client}; output: ${out}`);

  let servers: ServerStack | null = null;
  let site: { url: string; close(): Promise<void> } | null = null;
  let proxy: Proxy | null = null;
  const players: Player[] = [];
  try {
    servers = await step('start stores and two replicas', () =>
      startServers({
        replicas: [{ name: 'A', port: apiPort, tribePort }, { name: 'B' }],
        log,
      }),
    );
    const replicaB = new URL(servers.replicas[1]!.url).host;
    proxy = await startProxy({ [`localhost:${tribePort}`]: replicaB });
    site = /^https?:\/\//.test(client)
      ? { url: client.replace(/\/$/, ''), close: async () => {} }
      : await serveClient(client, await freePort());
    const siteUrl = site.url;
    log(`client served at ${siteUrl}`);

    const [alice, bob] = await step('open two browsers', async () => [
      await openPlayer('alice', profiles),
      await openPlayer('bob', profiles, proxy!.url),
    ]);
    players.push(alice!, bob!);

    await step('both reach the Tribe menu', () =>
      Promise.all(
        players.map(async (p) => {
          await p.page.goto(`${siteUrl}/tribe`);
          await p.page.waitForSelector(
            '.pageTribe .tribePage.menu:not(.hidden) #createCustomRoom:not([disabled])',
            {
              timeout: 60_000,
            },
          );
          await screenshot(p, out, '1-menu');
        }),
      ),
    );

    const code = await step('alice creates a room', async () => {
      await alice!.page.click('#createCustomRoom');
      const codeText = alice!.page.locator('.pageTribe .tribePage.lobby .inviteLink .code .text');
      await codeText.waitFor({ state: 'visible', timeout: 30_000 });
      await alice!.page.waitForFunction(
        (el) => /^[a-f0-9]{6}$/.test(el?.textContent?.trim() ?? ''),
        await codeText.elementHandle(),
      );
      return (await codeText.textContent())?.trim() as string;
    });
    log(`room code ${code}`);

    await step('bob joins by the code', async () => {
      await bob!.page.click('#enterRoomCode');
      const input = bob!.page.locator('input[placeholder="room code"]');
      await input.waitFor({ state: 'visible' });
      await input.fill(code);
      await input.press('Enter');
      await bob!.page.waitForSelector('.pageTribe .tribePage.lobby:not(.hidden)', { timeout: 30_000 });
      await alice!.page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelectorAll(
            '.pageTribe .tribePage.lobby .userlist .list .user',
          ).length === 2,
        undefined,
        { timeout: 30_000 },
      );
      await Promise.all(players.map((p) => screenshot(p, out, '2-lobby')));
    });

    const spread = await step('check the two players are held by two replicas', () =>
      replicasHolding(servers!),
    );
    log(
      `connections per replica: ${JSON.stringify(spread)}; bob's Tribe traffic to replica B: ${JSON.stringify(proxy.rerouted)}`,
    );
    if (Object.values(spread).filter((n) => n > 0).length !== 2)
      throw new Error(`expected one player on each replica, got ${JSON.stringify(spread)}`);

    await step('bob gets ready, alice starts the race', async () => {
      await bob!.page.click('.pageTribe .tribePage.lobby .lobbyButtons .userReadyButton');
      await alice!.page.waitForFunction(
        () =>
          (globalThis as unknown as PageGlobals).document.querySelectorAll(
            '.pageTribe .tribePage.lobby .userlist .list .user .icon.active',
          ).length >= 2,
        undefined,
        { timeout: 15_000 },
      );
      await alice!.page.click('.pageTribe .tribePage.lobby .lobbyButtons .startTestButton');
    });

    const words = await step('both race to the end of the test', () =>
      Promise.all(players.map((p) => race(p))),
    );
    await Promise.all(players.map((p) => screenshot(p, out, '3-finished')));
    const [aliceWords, bobWords] = words as [string[], string[]];
    log(`alice's words: ${aliceWords.join(' ')}; bob's: ${bobWords.join(' ')}`);
    if (aliceWords.length === 0 || aliceWords.join(' ') !== bobWords.join(' '))
      throw new Error('the two browsers got different words');

    const positions = await step('both see the results with positions', () =>
      Promise.all(
        players.map(async (p) => {
          await p.page.waitForFunction(
            () => {
              const cells = [
                ...(globalThis as unknown as PageGlobals).document.querySelectorAll(
                  '#result #tribeResults table tbody tr.user .pos',
                ),
              ];
              return (
                cells.length === 2 &&
                cells.every((c) => /^\d+(st|nd|rd|th)$/.test(c.textContent?.trim() ?? ''))
              );
            },
            undefined,
            { timeout: 60_000 },
          );
          await p.page.waitForTimeout(1_000);
          await screenshot(p, out, '4-results');
          return p.page.$$eval('#result #tribeResults table tbody tr.user', (rows) =>
            rows.map(
              (r) =>
                `${r.querySelector('.name')?.textContent?.trim()} ${r.querySelector('.pos')?.textContent?.trim()}`,
            ),
          );
        }),
      ),
    );
    log(`results: alice sees ${JSON.stringify(positions[0])}, bob sees ${JSON.stringify(positions[1])}`);
    writeFileSync(
      join(out, 'summary.json'),
      JSON.stringify({ code, spread, words, positions, timings }, null, 2),
    );
    log(`passed in ${((Date.now() - started) / 1000).toFixed(1)} s; screenshots in ${out}`);
    return 0;
  } catch (e) {
    log(`FAILED: ${(e as Error).message}`);
    await Promise.all(players.map((p) => screenshot(p, out, 'failure').catch(() => undefined)));
    writeFileSync(
      join(out, 'summary.json'),
      JSON.stringify({ failed: (e as Error).message, timings }, null, 2),
    );
    return 1;
  } finally {
    for (const p of players) await p.context.close().catch(() => undefined);
    await site?.close();
    await proxy?.close();
    await servers?.stop();
    rmSync(profiles, { recursive: true, force: true });
  }
}

/** Players each replica holds, from the store (every replica lists its connections there). */
async function replicasHolding(servers: ServerStack): Promise<Record<string, number>> {
  const redis = new Redis(servers.stores.redisUrl);
  try {
    const replicas = await redis.zrange('tribe:{tribe}:replicas', 0, -1);
    const counts: Record<string, number> = {};
    for (const id of replicas) counts[id] = await redis.hlen(`tribe:{tribe}:replica:${id}`);
    return counts;
  } finally {
    redis.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`test:tribe-client: ${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  },
);
