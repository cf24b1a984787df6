/**
 * References that lead nowhere in a clone of the repository: to the team's documents outside it (`../shared`, the
 * decisions and architecture files that live there), to a Markdown file or a link target that does not exist, and,
 * in the Markdown files, to a repository path (`src/...`, `test/...`) that does not exist. doc-references.spec.ts
 * runs this over the repository.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** Where references are looked for: the folders of code and docs, and the files at the root. */
export const SCANNED_FOLDERS = ['src', 'test', 'bench', 'scripts', 'generators', 'docs', '.ci', 'docker'];
const SKIPPED = new Set(['node_modules', 'dist', '.cache', '.data', '.bench-data', 'coverage', '.git']);
const TEXT = /\.(ts|js|mjs|cjs|json|md|sh|yml|yaml|lua|sql|txt)$|^(Dockerfile|run|[^.]+\.sh)$/;
/** Large data files that hold no references (the genuine client bodies, the lock file). */
const DATA = [/^test\/fixtures\/original-client-results\/.*\.json$/, /^package-lock\.json$/];

/** This check and its test name the team's documents and missing files on purpose: they are not scanned. */
const SELF = ['scripts/docs/doc-references.ts', 'scripts/docs/doc-references.spec.ts'];

/** Files that exist only where the code or an operator writes them (gitignored outputs, `docker/.env`). */
const WRITTEN_LATER = [
  /^\.bench-data\//,
  /^\.data\//,
  /^\.cache\//,
  /^dist\//,
  /(^|\/)last-run\.md$/,
  /(^|\/)\.env$/,
];

/** Folders a repository path in a Markdown file starts with. */
const REPO_ROOTS = ['src/', 'test/', 'bench/', 'scripts/', 'generators/', 'docs/', 'docker/', '.ci/'];

export interface Problem {
  file: string;
  line: number;
  reference: string;
  why: string;
}

/** The repository's files that are scanned, as paths relative to `root`. */
export function scannedFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir))) {
      if (SKIPPED.has(name)) continue;
      const path = dir ? `${dir}/${name}` : name;
      if (statSync(join(root, path)).isDirectory()) {
        if (dir || SCANNED_FOLDERS.includes(name)) walk(path);
      } else if (TEXT.test(name) && !DATA.some((pattern) => pattern.test(path))) files.push(path);
    }
  };
  walk('');
  return files.sort();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** What the repository looks like to the checks: which paths exist, and a Markdown file's text. */
export interface Repository {
  exists(path: string): boolean;
  read(path: string): string;
}

export function repositoryAt(root: string): Repository {
  return {
    exists: (path) => existsSync(join(root, path)),
    read: (path) => readFileSync(join(root, path), 'utf8'),
  };
}

/** A path as written in `file`, resolved inside the repository: beside the file first, then from the root. */
function resolve(repo: Repository, file: string, path: string): string | null {
  const clean = path.replace(/^\.\//, '');
  const candidates = [normalize(join(dirname(file), clean))];
  if (!path.startsWith('.')) candidates.push(normalize(clean));
  return candidates.find((candidate) => !candidate.startsWith('..') && repo.exists(candidate)) ?? null;
}

/** The problems of one file's text. */
export function referenceProblems(repo: Repository, file: string, text: string): Problem[] {
  const problems: Problem[] = [];
  const markdown = file.endsWith('.md');
  const lines = text.split('\n');
  let fenced = false;
  lines.forEach((line, index) => {
    const report = (reference: string, why: string) =>
      problems.push({ file, line: index + 1, reference, why });

    for (const match of line.matchAll(/\.\.\/shared(?![\w.-])\S*/g))
      report(match[0], 'the team folder outside the repository: a clone does not have it');
    for (const match of line.matchAll(/\b(DECISIONS|ARCHITECTURE)\b(\.md)?/g))
      report(
        match[0],
        'a team document outside the repository: cite docs/decisions/ or docs/architecture.md',
      );

    // Markdown files named anywhere (`docs/data.md`, `bench/README.md#scenarios`).
    for (const match of line.matchAll(/(?<![\w/.-])((?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.md)(#[\w-]+)?/g)) {
      const [, path, anchor] = match;
      if (/(^|\/)(DECISIONS|ARCHITECTURE)\.md$/.test(path!) || /^\.\.\/shared\//.test(path!)) continue;
      if (WRITTEN_LATER.some((pattern) => pattern.test(path!))) continue;
      const target = resolve(repo, file, path!);
      if (target === null) {
        report(match[0], 'no such file in the repository');
      } else if (anchor && !anchorsOf(repo.read(target)).has(anchor.slice(1))) {
        report(match[0], `no heading with this anchor in ${target}`);
      }
    }

    if (!markdown) return;
    if (/^\s*```/.test(line)) fenced = !fenced;
    // Links to other files ([text](../src/app.factory.ts), [x](#a-heading)).
    for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z]+:/i.test(target) || target.endsWith('.md') || /\.md#/.test(target)) continue;
      const [path, anchor] = target.split('#');
      if (!path) {
        if (anchor && !anchorsOf(text).has(anchor)) report(target, 'no heading with this anchor here');
      } else if (resolve(repo, file, path) === null) report(target, 'no such file in the repository');
    }
    // Repository paths in code spans (`src/modules/results/`), unless they are patterns or placeholders.
    if (fenced) return;
    for (const match of line.matchAll(/`([^`\s]+)`/g)) {
      const path = match[1]!.replace(/:\d+$/, '');
      if (!REPO_ROOTS.some((prefix) => path.startsWith(prefix))) continue;
      if (/[*<>{}[\]|]|\.\.\./.test(path) || WRITTEN_LATER.some((pattern) => pattern.test(path))) continue;
      if (!repo.exists(path.replace(/\/$/, ''))) report(path, 'no such path in the repository');
    }
  });
  return problems;
}

/** Every problem in the repository at `root`. */
export function repositoryProblems(root: string): Problem[] {
  const repo = repositoryAt(root);
  return scannedFiles(root)
    .filter((file) => !SELF.includes(file))
    .flatMap((file) => referenceProblems(repo, file, repo.read(file)));
}

export function describeProblem(root: string, problem: Problem): string {
  return `${relative(root, join(root, problem.file))}:${problem.line}: ${problem.reference} (${problem.why})`;
}
