import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { upsertTagBests } from './submission-write.statement';

/** What decides whether a stored result is a tag's personal best. */
export interface TaggedResult {
  mode: string;
  mode2: string;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  funbox: string[];
  bailedOut: boolean;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
}

/** A tag the user owns, with its best in the result's bucket (null: none yet). */
export interface OwnedTagBest {
  id: string;
  wpm: number | null;
}

export type RetagOutcome = { status: 'retagged'; tagPbs: string[] } | { status: 'not-found' | 'invalid-tag' };

@Injectable()
export class ResultTagsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Replaces a result's tags and records it as the best of each tag `decideTagPbs` names, in one transaction. The
   * result row is locked, then the tags (so a concurrent tag deletion or submission waits). Someone else's result
   * is 'not-found'; a tag id the user does not own is 'invalid-tag' and nothing changes.
   */
  async retag(
    uid: string,
    resultId: string,
    tagIds: string[],
    decideTagPbs: (result: TaggedResult, tags: OwnedTagBest[]) => string[],
    now: number,
  ): Promise<RetagOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('results')
        .select([
          'mode',
          'mode2',
          'language',
          'difficulty',
          'punctuation',
          'numbers',
          'lazy_mode',
          'funbox',
          'bailed_out',
          'wpm',
          'acc',
          'raw_wpm',
          'consistency',
        ])
        .where('uid', '=', uid)
        .where('id', '=', resultId)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return { status: 'not-found' as const };
      const result: TaggedResult = {
        mode: row.mode,
        mode2: row.mode2,
        language: row.language,
        difficulty: row.difficulty,
        punctuation: row.punctuation,
        numbers: row.numbers,
        lazyMode: row.lazy_mode,
        funbox: row.funbox,
        bailedOut: row.bailed_out,
        wpm: row.wpm,
        acc: row.acc,
        raw: row.raw_wpm,
        consistency: row.consistency,
      };
      const tags =
        tagIds.length === 0
          ? []
          : await trx
              .selectFrom('tags')
              .leftJoin('tag_personal_bests as tpb', (join) =>
                join
                  .onRef('tpb.tag_id', '=', 'tags.id')
                  .on('tpb.mode', '=', result.mode)
                  .on('tpb.mode2', '=', result.mode2)
                  .on('tpb.language', '=', result.language)
                  .on('tpb.difficulty', '=', result.difficulty)
                  .on('tpb.punctuation', '=', result.punctuation)
                  .on('tpb.numbers', '=', result.numbers)
                  .on('tpb.lazy_mode', '=', result.lazyMode),
              )
              .select(['tags.id', 'tpb.wpm'])
              .where('tags.uid', '=', uid)
              .where('tags.id', 'in', tagIds)
              .forUpdate('tags')
              .execute();
      if (tags.length !== tagIds.length) return { status: 'invalid-tag' as const };
      await trx
        .updateTable('results')
        .set({ tags: tagIds })
        .where('uid', '=', uid)
        .where('id', '=', resultId)
        .execute();
      const tagPbs = decideTagPbs(result, tags);
      if (tagPbs.length > 0) {
        const r = result;
        const values = sql`${r.mode}, ${r.mode2}, ${r.language}, ${r.difficulty}, ${r.punctuation}, ${r.numbers},
          ${r.lazyMode}, ${r.wpm}, ${r.acc}, ${r.raw}, ${r.consistency}, ${now}`;
        await upsertTagBests(uid, tagPbs, values).execute(trx);
      }
      return { status: 'retagged' as const, tagPbs };
    });
  }
}
