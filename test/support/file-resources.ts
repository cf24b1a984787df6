/**
 * What a test file opened through the support code, for the test environment (test/support/environment.ts) to check
 * when the file ends. Jest runs every file of a run in one process on a small machine: anything a file leaves open
 * keeps its whole module graph (the application, its pools and clients) in memory for the rest of the run.
 */
export interface FileResource {
  /** What it is, for the report ("test app", "stub HTTP server on 127.0.0.1:1234"). */
  what: string;
  /** Where it was opened (a stack: the environment keeps the test file's own frames). */
  openedAt: string;
  close(): Promise<void>;
}

export interface FileResources {
  /** Opened by the test, which must close it (`afterAll(() => t.close())`): one still open fails the file. */
  owned: Set<FileResource>;
  /** Shared by the file's tests and owned by the support code (the JWKS server): closed when the file ends. */
  shared: Set<FileResource>;
}

declare global {
  var __TEST_FILE_RESOURCES__: FileResources | undefined;
}

function resources(): FileResources {
  return (globalThis.__TEST_FILE_RESOURCES__ ??= { owned: new Set(), shared: new Set() });
}

function openedAt(): string {
  return new Error('opened').stack ?? '';
}

/**
 * Records something the test must close; the returned function forgets it (call it from the resource's `close`).
 * A file that ends with it still open fails, naming it and where it was opened (and it is closed then).
 */
export function openedByTest(what: string, close: () => Promise<void>): () => void {
  const resource: FileResource = { what, openedAt: openedAt(), close };
  resources().owned.add(resource);
  return () => resources().owned.delete(resource);
}

/** Records something the support code shares between a file's tests and closes when the file ends. */
export function closeWhenFileEnds(what: string, close: () => Promise<void>): void {
  resources().shared.add({ what, openedAt: openedAt(), close });
}
