import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import type { Executor } from '../../infra/database/transaction';
import { emptyPersonalBests, groupPersonalBests } from './personal-bests';
import { TagsRepository } from './tags.repository';
import { UsersRepository } from './users.repository';

/** docs/decisions/0024-users-names-and-limits.md. */
export const MAX_TAGS = 15;
const TAG_NOT_FOUND = 'Tag not found';

@Injectable()
export class TagsService {
  private readonly logger = new Logger(TagsService.name);

  constructor(
    private readonly tags: TagsRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  async list(uid: string) {
    const [tags, bests] = await Promise.all([this.tags.list(uid), this.tags.personalBests(uid)]);
    return tags.map((tag) => ({
      _id: tag.id,
      name: tag.name,
      personalBests: groupPersonalBests(bests.filter((b) => b.tag_id === tag.id)),
    }));
  }

  async add(uid: string, name: string) {
    const id = newId();
    await this.users.inTransaction(async (trx) => {
      // The row lock makes the count and the insert one step, so parallel adds cannot pass the limit.
      await this.users.lock(uid, trx);
      if ((await this.tags.count(uid, trx)) >= MAX_TAGS) {
        throw new AppError(400, 'Maximum number of tags reached');
      }
      await this.tags.insert(uid, { id, name }, this.clock.now(), trx);
    });
    this.logger.log({ uid, tagId: id }, 'tag added');
    return { _id: id, name, personalBests: emptyPersonalBests() };
  }

  async rename(uid: string, id: string, name: string): Promise<void> {
    if (!(await this.tags.rename(uid, id, name))) throw new AppError(404, TAG_NOT_FOUND);
  }

  async delete(uid: string, id: string): Promise<void> {
    if (!(await this.tags.delete(uid, id))) throw new AppError(404, TAG_NOT_FOUND);
    this.logger.log({ uid, tagId: id }, 'tag deleted');
  }

  async clearPersonalBests(uid: string, id: string): Promise<void> {
    if (!(await this.tags.exists(uid, id))) throw new AppError(404, TAG_NOT_FOUND);
    await this.tags.clearPersonalBests(uid, id);
  }

  deleteAllOf(uid: string, trx: Executor): Promise<void> {
    return this.tags.deleteAllOf(uid, trx);
  }
}
