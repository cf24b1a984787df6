import { cleanUpOnce } from './clean-up';

describe('the bench runner clean-up', () => {
  it('runs every step in order even when one fails, and reports the failure', async () => {
    const done: string[] = [];
    const errors: string[] = [];
    const cleanUp = cleanUpOnce(
      () => [
        async () => void done.push('server'),
        () => Promise.reject(new Error('issuer would not stop')),
        async () => void done.push('stores'),
      ],
      (e) => errors.push(e.message),
    );
    await cleanUp();
    expect({ done, errors }).toEqual({ done: ['server', 'stores'], errors: ['issuer would not stop'] });
  });

  it('runs once: a second call during the first waits for the stores to be stopped', async () => {
    let stopStores!: () => void;
    let storesStopped = false;
    let runs = 0;
    const cleanUp = cleanUpOnce(
      () => {
        runs++;
        return [
          () =>
            new Promise<void>((resolve) => (stopStores = resolve)).then(() => {
              storesStopped = true;
            }),
        ];
      },
      () => undefined,
    );
    const first = cleanUp();
    let secondDone = false;
    const second = cleanUp().then(() => (secondDone = true));
    await new Promise((r) => setImmediate(r));
    expect(secondDone).toBe(false);
    stopStores();
    await Promise.all([first, second]);
    expect({ runs, storesStopped, secondDone }).toEqual({ runs: 1, storesStopped: true, secondDone: true });
  });

  it('takes its steps when it starts, so servers started after it was made are stopped', async () => {
    const servers: string[] = [];
    const stopped: string[] = [];
    const cleanUp = cleanUpOnce(
      () => servers.map((name) => async () => void stopped.push(name)),
      () => undefined,
    );
    servers.push('ours', 'baseline');
    await cleanUp();
    expect(stopped).toEqual(['ours', 'baseline']);
  });
});
