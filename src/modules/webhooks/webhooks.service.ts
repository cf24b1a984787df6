import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES, ValidationFailed } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { PsasService } from '../psas/psas.service';
import { ReleaseJobsRepository } from './release-jobs.repository';

/** The original's answer to a published release without an id (contract facts §11). */
export const RELEASE_ID_MISSING = 'Missing property "release.id".';

export const RELEASE_ANNOUNCEMENT = 'releaseAnnouncement';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shortString(value: unknown, max: number): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

@Injectable()
export class WebhooksService {
  private readonly logger = new Logger(WebhooksService.name);

  constructor(
    private readonly jobs: ReleaseJobsRepository,
    private readonly psas: PsasService,
    private readonly clock: Clock,
  ) {}

  /**
   * A release event of the code host. The payload is the host's, with many more fields than we read, so it is
   * checked loosely: `action` must be a string, and a `published` release needs `release.id`. A published release
   * enqueues one announcement job per release id (redeliveries are acknowledged, not enqueued again); the job is
   * then run at once: the release becomes a PSA (once per release) and the job is marked done. A delivery that
   * finds the job not done yet (an earlier run failed) runs it again.
   */
  async githubRelease(payload: unknown, deliveryId: string | null): Promise<string> {
    if (!isRecord(payload) || typeof payload.action !== 'string') {
      throw new ValidationFailed(422, MESSAGES.invalidBody, ['"action" must be a string']);
    }
    if (payload.action !== 'published') {
      this.logger.log({ action: payload.action, deliveryId }, 'release webhook ignored');
      return 'No action taken';
    }
    const release = isRecord(payload.release) ? payload.release : {};
    const id = release.id;
    const releaseId = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : shortString(id, 100);
    if (releaseId === null) throw new AppError(422, RELEASE_ID_MISSING);

    const tagName = shortString(release.tag_name, 200);
    const created = await this.jobs.enqueueOnce(
      { releaseId, kind: RELEASE_ANNOUNCEMENT, tagName, deliveryId },
      this.clock.now(),
    );
    if (created || (await this.jobs.status(releaseId)) !== 'done') {
      await this.psas.announceRelease({ releaseId, tagName, name: shortString(release.name, 200) });
      await this.jobs.markDone(releaseId);
    }
    this.logger.log(
      { releaseId, deliveryId, created },
      created ? 'release announcement queued' : 'release announcement already queued',
    );
    return 'Added release announcement task to queue';
  }
}
