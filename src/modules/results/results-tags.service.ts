import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { funboxesAllowPb } from './domain/funbox-rules';
import { canSetPersonalBest, isNewPersonalBest } from './domain/personal-best';
import { ResultTagsRepository, type OwnedTagBest, type TaggedResult } from './result-tags.repository';

/**
 * The tags of the result: which of them the result is now the best of. Same rules as at submission (domain facts
 * §1.4); stop-on-letter is not stored with a result, so it does not count here (as in the original).
 */
export function tagPersonalBests(result: TaggedResult, tags: OwnedTagBest[]): string[] {
  const allowed = canSetPersonalBest({
    mode: result.mode,
    acc: result.acc,
    bailedOut: result.bailedOut,
    stopOnLetter: false,
    funboxesAllowPb: funboxesAllowPb(result.funbox),
  });
  return allowed ? tags.filter((tag) => isNewPersonalBest(tag.wpm, result.wpm)).map((tag) => tag.id) : [];
}

@Injectable()
export class ResultsTagsService {
  private readonly logger = new Logger(ResultsTagsService.name);

  constructor(
    private readonly repository: ResultTagsRepository,
    private readonly clock: Clock,
  ) {}

  /** Replaces the result's tags; returns the tags it became the personal best of. */
  async updateTags(uid: string, resultId: string, tagIds: string[]): Promise<{ tagPbs: string[] }> {
    const outcome = await this.repository.retag(
      uid,
      resultId,
      [...new Set(tagIds)],
      tagPersonalBests,
      this.clock.now(),
    );
    if (outcome.status !== 'retagged') {
      throw outcome.status === 'not-found'
        ? new AppError(404, 'Result not found')
        : new AppError(422, "One of the tag id's is not valid");
    }
    this.logger.log({ uid, resultId, tags: tagIds.length, tagPbs: outcome.tagPbs }, 'result tags updated');
    return { tagPbs: outcome.tagPbs };
  }
}
