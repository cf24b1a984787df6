type Step = () => Promise<unknown> | undefined;

/**
 * The runner's clean-up: the steps (taken when it starts, so servers started meanwhile are in them) run one after
 * another, and a step that fails is reported without skipping the next (the stores are stopped even when a server
 * would not stop). It runs once: a second call (Ctrl-C during the clean-up after a failure) waits for the first instead
 * of exiting half-way with the stores still running.
 */
export function cleanUpOnce(steps: () => Step[], onError: (e: Error) => void): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () =>
    (running ??= (async () => {
      for (const step of steps()) {
        try {
          await step();
        } catch (e) {
          onError(e as Error);
        }
      }
    })());
}
