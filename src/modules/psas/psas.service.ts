import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import type { NewPsa, Psa, ReleaseAnnouncement } from './psa.types';
import { PsasRepository } from './psas.repository';

/**
 * Every page load of the original client asks for the announcements, so the list is served from memory for a minute
 * (the original caches it as long). Changes made through this process show at once; other replicas within a minute.
 */
export const PSA_CACHE_MS = 60_000;

/** Announcement levels of the original client: -1 error, 0 notice, 1 success. */
export const PSA_LEVELS = [-1, 0, 1] as const;

const MAX_MESSAGE_LENGTH = 2000;

/** The announcement a published release becomes (see releaseMessage). */
export const RELEASE_PSA_LEVEL = 1;

/** "Version v26.47.0 has been released: Winter update" — the tag names the version, the release name says what. */
export function releaseMessage(release: ReleaseAnnouncement): string {
  const version = release.tagName ?? release.name ?? release.releaseId;
  const title = release.name !== null && release.name !== version ? `: ${release.name}` : '';
  return `Version ${version} has been released${title}. Refresh the page to get it.`;
}

@Injectable()
export class PsasService {
  private readonly logger = new Logger(PsasService.name);
  private cache: { psas: Psa[]; until: number } | null = null;

  constructor(
    private readonly repository: PsasRepository,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<Psa[]> {
    const now = this.clock.now();
    if (this.cache && this.cache.until > now) return this.cache.psas;
    const psas = await this.repository.list();
    this.cache = { psas, until: now + PSA_CACHE_MS };
    return psas;
  }

  /** Operators (CLI). Returns the new announcement. */
  async add(psa: NewPsa): Promise<Psa> {
    const message = psa.message.trim();
    if (message === '' || message.length > MAX_MESSAGE_LENGTH) {
      throw new AppError(400, `A PSA message must be 1-${MAX_MESSAGE_LENGTH} characters`);
    }
    if (psa.level !== undefined && !(PSA_LEVELS as readonly number[]).includes(psa.level)) {
      throw new AppError(400, `A PSA level must be one of ${PSA_LEVELS.join(', ')}`);
    }
    if (psa.date !== undefined && (!Number.isSafeInteger(psa.date) || psa.date < 0)) {
      throw new AppError(400, 'A PSA date must be a timestamp in milliseconds');
    }
    const id = newId();
    const stored = { ...psa, message };
    await this.repository.insert(id, stored, this.clock.now());
    this.cache = null;
    this.logger.log({ psaId: id }, 'psa added');
    return Object.assign({ _id: id }, stored);
  }

  async remove(id: string): Promise<boolean> {
    const removed = await this.repository.delete(id);
    this.cache = null;
    this.logger.log({ psaId: id, removed }, 'psa removed');
    return removed;
  }

  /** A published release announced to every client; once per release, however often the webhook is delivered. */
  async announceRelease(release: ReleaseAnnouncement): Promise<boolean> {
    const created = await this.repository.insertForRelease(
      newId(),
      release.releaseId,
      { message: releaseMessage(release), level: RELEASE_PSA_LEVEL },
      this.clock.now(),
    );
    if (created) this.cache = null;
    this.logger.log({ releaseId: release.releaseId, created }, 'release announced');
    return created;
  }
}
