import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstBlockedDirectory, type PostgresUser } from './postgres-user';

describe('firstBlockedDirectory (can the postgres user reach a path?)', () => {
  let root: string;
  // Someone who owns none of the test's directories and is in none of their groups.
  const stranger: PostgresUser = { name: 'stranger', uid: 54321, gid: 54321 };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'reach-'));
    chmodSync(root, 0o755);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds nothing in the way through directories open to others', () => {
    mkdirSync(join(root, 'a', 'b'), { recursive: true, mode: 0o755 });
    expect(firstBlockedDirectory(join(root, 'a', 'b', 'bin', 'postgres'), stranger)).toBeUndefined();
  });

  it('names the first private (0700) directory on the way, as under /root or mktemp -d', () => {
    mkdirSync(join(root, 'private', 'inner'), { recursive: true });
    chmodSync(join(root, 'private'), 0o700);
    expect(firstBlockedDirectory(join(root, 'private', 'inner', 'data'), stranger)).toBe(
      join(root, 'private'),
    );
  });

  it('lets the owner through its own private directory', () => {
    mkdirSync(join(root, 'mine'));
    chmodSync(join(root, 'mine'), 0o700);
    const { uid, gid } = statSync(join(root, 'mine'));
    expect(firstBlockedDirectory(join(root, 'mine', 'x'), { name: 'me', uid, gid: gid + 1 })).toBeUndefined();
  });

  it('lets the group through a directory searchable by its group only', () => {
    mkdirSync(join(root, 'shared'));
    chmodSync(join(root, 'shared'), 0o710);
    const { gid } = statSync(join(root, 'shared'));
    expect(firstBlockedDirectory(join(root, 'shared', 'x'), { ...stranger, gid })).toBeUndefined();
    expect(firstBlockedDirectory(join(root, 'shared', 'x'), stranger)).toBe(join(root, 'shared'));
  });

  it('checks a readable but not searchable directory (r without x) as closed', () => {
    mkdirSync(join(root, 'listonly'));
    chmodSync(join(root, 'listonly'), 0o744);
    expect(firstBlockedDirectory(join(root, 'listonly', 'x'), stranger)).toBe(join(root, 'listonly'));
  });
});
