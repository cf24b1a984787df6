import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';

export interface QuoteRatingRecord {
  id: string;
  language: string;
  quoteId: number;
  ratings: number;
  totalRating: number;
}

export interface RatedQuote {
  uid: string;
  language: string;
  quoteId: number;
  rating: number;
}

@Injectable()
export class QuoteRatingsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async find(language: string, quoteId: number): Promise<QuoteRatingRecord | null> {
    const row = await this.db
      .selectFrom('quote_ratings')
      .select(['id', 'language', 'quote_id', 'ratings', 'total_rating'])
      .where('language', '=', language)
      .where('quote_id', '=', quoteId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      language: row.language,
      quoteId: row.quote_id,
      ratings: row.ratings,
      totalRating: row.total_rating,
    };
  }

  /**
   * Records the user's rating and moves the quote's aggregate by the difference, in one transaction: a first
   * rating adds one rating and its value, a changed rating only the difference (the original's semantics). The
   * per-user-and-quote lock keeps a double submit from counting twice. Returns whether the user had rated before.
   */
  async rate(r: RatedQuote, newAggregateId: string): Promise<{ updated: boolean }> {
    return this.db.transaction().execute(async (trx) => {
      const key = advisoryLockKey(`quote-rating:${r.uid}:${r.language}:${r.quoteId}`).toString();
      await sql`SELECT pg_advisory_xact_lock(${key}::bigint)`.execute(trx);
      const previous = await trx
        .selectFrom('user_quote_ratings')
        .select('rating')
        .where('uid', '=', r.uid)
        .where('language', '=', r.language)
        .where('quote_id', '=', r.quoteId)
        .executeTakeFirst();
      await trx
        .insertInto('user_quote_ratings')
        .values({ uid: r.uid, language: r.language, quote_id: r.quoteId, rating: r.rating })
        .onConflict((oc) => oc.columns(['uid', 'language', 'quote_id']).doUpdateSet({ rating: r.rating }))
        .execute();
      const delta = r.rating - (previous?.rating ?? 0);
      const added = previous ? 0 : 1;
      await trx
        .insertInto('quote_ratings')
        .values({
          id: newAggregateId,
          language: r.language,
          quote_id: r.quoteId,
          // No aggregate yet: this is the quote's first rating.
          ratings: 1,
          total_rating: r.rating,
        })
        .onConflict((oc) =>
          oc.columns(['language', 'quote_id']).doUpdateSet({
            ratings: sql`quote_ratings.ratings + ${added}`,
            total_rating: sql`quote_ratings.total_rating + ${delta}`,
          }),
        )
        .execute();
      return { updated: previous !== undefined };
    });
  }
}
