import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { PublicStatsRepository, type TypingTotals } from './public-stats.repository';
import { toHistogram } from './speed-histogram';

/**
 * Both statistics change slowly and are asked for by anonymous page loads, so each is computed at most once a minute
 * per process (docs/decisions/0038-site-wide-totals-aggregated.md: never a row every submission updates).
 */
export const PUBLIC_STATS_CACHE_MS = 60_000;

interface Cached<T> {
  value: Promise<T>;
  until: number;
}

@Injectable()
export class PublicStatsService {
  private totals: Cached<TypingTotals> | null = null;
  private readonly histograms = new Map<string, Cached<Record<string, number>>>();

  constructor(
    private readonly repository: PublicStatsRepository,
    private readonly clock: Clock,
  ) {}

  /** Concurrent callers share one computation; a failed one is not kept. */
  private cached<T>(entry: Cached<T> | null | undefined, load: () => Promise<T>): Cached<T> {
    const now = this.clock.now();
    if (entry && entry.until > now) return entry;
    const fresh: Cached<T> = { value: load(), until: now + PUBLIC_STATS_CACHE_MS };
    fresh.value.catch(() => (fresh.until = 0));
    return fresh;
  }

  /** `{ "<wpm bucket>": count }` of the all-time board; `{}` when there is no such board. */
  async speedHistogram(language: string, mode: string, mode2: string): Promise<Record<string, number>> {
    const key = `${language}\u0000${mode}\u0000${mode2}`;
    const entry = this.cached(this.histograms.get(key), async () =>
      toHistogram(await this.repository.speedBuckets(language, mode, mode2)),
    );
    // Bounded by the boards that exist plus whatever unknown ones were asked for within a minute.
    if (this.histograms.size > 1000) this.histograms.clear();
    this.histograms.set(key, entry);
    return entry.value;
  }

  async typingStats(): Promise<TypingTotals> {
    this.totals = this.cached(this.totals, async () => {
      const totals = await this.repository.typingTotals();
      return { ...totals, timeTyping: Math.round(totals.timeTyping * 100) / 100 };
    });
    return this.totals.value;
  }
}
