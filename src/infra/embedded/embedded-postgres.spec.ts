import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clusterDirFor } from './embedded-postgres';
import type { PostgresUser } from './postgres-user';

describe('clusterDirFor (where the embedded cluster lives)', () => {
  let root: string;
  const postgres: PostgresUser = { name: 'postgres', uid: 54321, gid: 54321 };
  const moved: string[] = [];

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cluster-'));
    chmodSync(root, 0o755);
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
    for (const dir of moved.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the requested directory when we run PostgreSQL as ourselves (not root)', () => {
    const dataDir = join(root, 'private', 'postgres');
    mkdirSync(dirname(dataDir), { mode: 0o700 });
    expect(clusterDirFor({ dataDir, persistent: true, database: 'x' }, undefined)).toBe(dataDir);
  });

  it('keeps the requested directory when the postgres user can reach it', () => {
    const dataDir = join(root, 'open', 'postgres');
    expect(clusterDirFor({ dataDir, persistent: true, database: 'x' }, postgres)).toBe(dataDir);
  });

  it('moves a persistent cluster out of a private directory and links it, so the next start finds it', () => {
    mkdirSync(join(root, 'private'));
    chmodSync(join(root, 'private'), 0o700);
    const dataDir = join(root, 'private', 'postgres');
    const logs: string[] = [];
    const first = clusterDirFor(
      { dataDir, persistent: true, database: 'x', onLog: (l) => logs.push(l) },
      postgres,
    );
    moved.push(first);
    expect(first.startsWith(join(root, 'private'))).toBe(false);
    expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
    expect(readlinkSync(dataDir)).toBe(first);
    expect(logs.join('\n')).toContain(join(root, 'private'));
    expect(clusterDirFor({ dataDir, persistent: true, database: 'x' }, postgres)).toBe(first);
  });

  it('puts a throwaway cluster in a fresh reachable temp directory, leaving no link behind', () => {
    mkdirSync(join(root, 'private'));
    chmodSync(join(root, 'private'), 0o700);
    const dataDir = join(root, 'private', 'pg');
    const dir = clusterDirFor({ dataDir, persistent: false, database: 'x' }, postgres);
    moved.push(dir);
    expect(dir.startsWith(join(root, 'private'))).toBe(false);
    expect(() => lstatSync(dataDir)).toThrow();
  });

  it('refuses, naming the closed directory, when a cluster already sits where the postgres user cannot reach it', () => {
    mkdirSync(join(root, 'private', 'postgres'), { recursive: true });
    chmodSync(join(root, 'private'), 0o700);
    expect(() =>
      clusterDirFor(
        { dataDir: join(root, 'private', 'postgres'), persistent: true, database: 'x' },
        postgres,
      ),
    ).toThrow(`${join(root, 'private')} is closed to it`);
  });
});
