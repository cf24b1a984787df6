import { join } from 'node:path';
import {
  describeProblem,
  headingAnchor,
  referenceProblems,
  repositoryProblems,
  scannedFiles,
  type Repository,
} from './doc-references';

const ROOT = join(__dirname, '..', '..');

/** A repository of a few files, for the checks' own cases. */
function fakeRepository(files: Record<string, string>): Repository {
  const paths = new Set(Object.keys(files));
  for (const path of Object.keys(files)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) paths.add(parts.slice(0, i).join('/'));
  }
  return { exists: (path) => paths.has(path), read: (path) => files[path] ?? '' };
}

const repo = fakeRepository({
  'README.md': '# Typing platform API\n\n## Two commands\n',
  'docs/data.md': '# Your data\n\n## Moving from the original platform\n\n## Export, import\n',
  'docs/decisions/0001-contract.md': '# 1. The contract\n',
  'src/app.factory.ts': '',
  'src/modules/results/results.controller.ts': '',
});
const problems = (file: string, text: string) => referenceProblems(repo, file, text).map((p) => p.reference);

describe('references that lead nowhere in a clone', () => {
  it('finds none in the repository', () => {
    const found = repositoryProblems(ROOT);
    expect(found.map((p) => describeProblem(ROOT, p))).toEqual([]);
  });

  it('scans the code, the tests, the bench, the scripts, the generators, the docs and the root files', () => {
    const files = scannedFiles(ROOT);
    for (const file of [
      'README.md',
      'SECURITY.md',
      'src/main.ts',
      'test/global-setup.ts',
      'bench/run.ts',
      'scripts/docs-configuration.js',
      'generators/human-typing.ts',
      'docs/architecture.md',
      'docs/decisions/README.md',
    ])
      expect(files).toContain(file);
    expect(files.filter((f) => f.startsWith('node_modules/') || f.startsWith('dist/'))).toEqual([]);
  });

  it('refuses the team folder beside the repository, and its decisions and architecture files', () => {
    expect(problems('src/a.ts', '// the contract (../shared/spec/typing-platform-api.md)')).toEqual([
      '../shared/spec/typing-platform-api.md)',
    ]);
    expect(problems('src/a.ts', '/** Aliases (DECISIONS.md "Users and social"). */')).toEqual([
      'DECISIONS.md',
    ]);
    expect(problems('src/a.ts', '// rule 7 of ARCHITECTURE')).toEqual(['ARCHITECTURE']);
    expect(problems('test/a.ts', "it('serves the defaults of DECISIONS: switches on')")).toEqual([
      'DECISIONS',
    ]);
  });

  it('refuses a Markdown file that does not exist, or an anchor it does not have', () => {
    expect(problems('src/a.ts', '// see docs/data.md and README.md')).toEqual([]);
    expect(problems('src/a.ts', '// see docs/decisions/0001-contract.md')).toEqual([]);
    expect(problems('src/a.ts', '// see docs/decisions/0002-storage.md')).toEqual([
      'docs/decisions/0002-storage.md',
    ]);
    expect(problems('src/a.ts', '// see docs/operations.md#health')).toEqual(['docs/operations.md#health']);
    expect(problems('src/a.ts', '// see docs/data.md#moving-from-the-original-platform')).toEqual([]);
    expect(problems('src/a.ts', '// see docs/data.md#export-import')).toEqual([]);
    expect(problems('src/a.ts', '// see docs/data.md#erasure')).toEqual(['docs/data.md#erasure']);
    // Relative to the file, as Markdown links are.
    expect(
      problems('docs/api.md', 'See [data](data.md) and [the README](../README.md#two-commands).'),
    ).toEqual([]);
    expect(problems('docs/api.md', 'See [decision 1](decisions/0001-contract.md).')).toEqual([]);
    expect(problems('docs/api.md', 'See [ops](operations.md).')).toEqual(['operations.md']);
    expect(problems('docs/api.md', 'Outside: [x](../../shared.md)')).toEqual(['../../shared.md']);
  });

  it('refuses, in Markdown, links and repository paths that do not exist', () => {
    expect(problems('docs/api.md', 'Built by [the factory](../src/app.factory.ts).')).toEqual([]);
    expect(problems('docs/api.md', 'Built by [the factory](../src/app-factory.ts).')).toEqual([
      '../src/app-factory.ts',
    ]);
    expect(problems('docs/api.md', 'See [below](#not-here).')).toEqual(['#not-here']);
    expect(problems('docs/api.md', 'The controller: `src/modules/results/results.controller.ts`.')).toEqual(
      [],
    );
    expect(problems('docs/api.md', 'The folder: `src/modules/results/`.')).toEqual([]);
    expect(problems('docs/api.md', 'The service: `src/modules/results/results.service.ts`.')).toEqual([
      'src/modules/results/results.service.ts',
    ]);
    // Patterns and placeholders are not paths; code blocks and other files are not checked for them.
    expect(problems('docs/api.md', '`src/modules/<feature>/`, `test/e2e/**/*.e2e-spec.ts`')).toEqual([]);
    expect(problems('docs/api.md', '```\nsrc/gone.ts\n```')).toEqual([]);
    expect(problems('src/a.ts', '// `src/gone.ts`')).toEqual([]);
  });

  it('writes anchors as GitHub does', () => {
    expect(headingAnchor('Moving from the original platform')).toBe('moving-from-the-original-platform');
    expect(headingAnchor('Export, import and erasure')).toBe('export-import-and-erasure');
    expect(headingAnchor('`POST /results`: a submission’s path')).toBe('post-results-a-submissions-path');
  });
});
