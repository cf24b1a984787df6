import { MultiBar, type SingleBar } from 'cli-progress';
import type { CollectionSummary, ImportSummary, ProgressSink } from './import-pipeline';

const fmt = (n: number) => n.toLocaleString('en-US');

function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m` : `${m}:${String(s % 60).padStart(2, '0')}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface Track {
  started: number;
  total: number;
  documents: number;
  bytes: number;
}

function rates(track: Track, now: number) {
  const seconds = Math.max(0.001, (now - track.started) / 1000);
  const rate = track.documents / seconds;
  const fraction = track.total > 0 ? Math.min(1, track.bytes / track.total) : 1;
  const eta = fraction > 0 ? (seconds / fraction) * (1 - fraction) : Number.NaN;
  return { rate, fraction, eta };
}

/**
 * On a terminal: one line per collection, updated in place (documents, rate, ETA from the bytes read; cli-progress
 * redraws at most a few times a second).
 */
export class TerminalProgress implements ProgressSink {
  private readonly bars: MultiBar;
  private readonly tracks = new Map<string, Track & { bar: SingleBar }>();

  constructor(stream: NodeJS.WritableStream) {
    this.bars = new MultiBar({
      stream: stream as NodeJS.WriteStream,
      format: '{name} [{bar}] {percentage}% | {documents} documents | {rate}/s | ETA {eta_text}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      fps: 5,
    });
  }

  start(name: string, totalBytes: number): void {
    const bar = this.bars.create(Math.max(1, totalBytes), 0, {
      name: name.padEnd(12),
      documents: '0',
      rate: '0',
      eta_text: '?',
    });
    this.tracks.set(name, { bar, started: Date.now(), total: totalBytes, documents: 0, bytes: 0 });
  }

  update(name: string, documents: number, bytesRead: number): void {
    const track = this.tracks.get(name);
    if (!track) return;
    track.documents = documents;
    track.bytes = bytesRead;
    const { rate, eta } = rates(track, Date.now());
    track.bar.update(Math.min(Math.max(1, track.total), bytesRead), {
      documents: fmt(documents),
      rate: fmt(Math.round(rate)),
      eta_text: duration(eta),
    });
  }

  done(summary: CollectionSummary): void {
    const track = this.tracks.get(summary.name);
    track?.bar.update(Math.max(1, track.total), { documents: fmt(summary.read), eta_text: 'done' });
  }

  stop(): void {
    this.bars.stop();
  }
}

/** Not on a terminal (a log, CI): a plain line per collection every few seconds, and one when it is done. */
export class PlainProgress implements ProgressSink {
  private readonly tracks = new Map<string, Track & { lastLine: number }>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly everyMs = 5000,
  ) {}

  start(name: string, totalBytes: number): void {
    const now = Date.now();
    this.tracks.set(name, { started: now, total: totalBytes, documents: 0, bytes: 0, lastLine: now });
    this.write(`${name}: reading ${megabytes(totalBytes)}`);
  }

  update(name: string, documents: number, bytesRead: number): void {
    const track = this.tracks.get(name);
    if (!track) return;
    track.documents = documents;
    track.bytes = bytesRead;
    const now = Date.now();
    if (now - track.lastLine < this.everyMs) return;
    track.lastLine = now;
    const { rate, fraction, eta } = rates(track, now);
    this.write(
      `${name}: ${fmt(documents)} documents, ${fmt(Math.round(rate))}/s, ` +
        `${Math.round(fraction * 100)}% of ${megabytes(track.total)}, ETA ${duration(eta)}`,
    );
  }

  done(summary: CollectionSummary): void {
    this.write(
      `${summary.name}: done, ${fmt(summary.read)} documents in ${(summary.ms / 1000).toFixed(1)} s`,
    );
  }

  stop(): void {
    return;
  }
}

/** The closing table: per collection, read, imported, skipped, rejected and time; then what was rebuilt. */
export function summaryLines(
  summary: ImportSummary,
  extra: { ignored: string[]; rejectsNote: string; notes?: string[]; leftBehindSection?: string },
): string[] {
  const header = ['collection', 'read', 'imported', 'skipped', 'rejected', 'adjusted', 'time'];
  const rows = summary.collections.map((c) => [
    c.name,
    fmt(c.read),
    fmt(c.imported),
    fmt(c.skipped),
    fmt(c.rejected),
    fmt(c.adjusted),
    `${(c.ms / 1000).toFixed(1)} s`,
  ]);
  const total = (key: 'read' | 'imported' | 'skipped' | 'rejected' | 'adjusted') =>
    fmt(summary.collections.reduce((sum, c) => sum + c[key], 0));
  rows.push([
    'total',
    total('read'),
    total('imported'),
    total('skipped'),
    total('rejected'),
    total('adjusted'),
    `${(summary.ms / 1000).toFixed(1)} s`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  const lines = [line(header), ...rows.map(line)];
  const leftBehind = new Map<string, number>();
  for (const c of summary.collections)
    for (const [field, n] of Object.entries(c.fieldsLeftBehind))
      leftBehind.set(`${c.name}.${field}`, (leftBehind.get(`${c.name}.${field}`) ?? 0) + n);
  if (leftBehind.size > 0)
    lines.push(
      `fields not carried over (README "${extra.leftBehindSection ?? 'Moving from the original platform'}"): ${[
        ...leftBehind,
      ]
        .map(([f, n]) => `${f} ×${fmt(n)}`)
        .join(', ')}`,
    );
  lines.push(...extra.ignored, ...(extra.notes ?? []), extra.rejectsNote, ...summary.finish.steps);
  return lines;
}
