import { Injectable } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { UsersRepository } from './users.repository';

/** Favourite quote ids by language (spec "Other resources"), at most `quotes.maxFavorites` in all. */
@Injectable()
export class FavoriteQuotesService {
  constructor(
    private readonly users: UsersRepository,
    private readonly configuration: ServerConfigurationService,
  ) {}

  async list(uid: string): Promise<Record<string, string[]>> {
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    return user.favoriteQuotes;
  }

  /** Adding one already there changes nothing (and is not refused at the limit). */
  async add(uid: string, language: string, quoteId: string): Promise<void> {
    const max = (await this.configuration.get()).quotes.maxFavorites;
    await this.users.inTransaction(async (trx) => {
      const user = await this.users.lock(uid, trx);
      if (!user) throw new AppError(404, MESSAGES.userNotFound);
      const favorites = user.favoriteQuotes;
      if (favorites[language]?.includes(quoteId)) return;
      const total = Object.values(favorites).reduce((n, ids) => n + ids.length, 0);
      if (total >= max) throw new AppError(409, 'Maximum number of favorite quotes reached');
      favorites[language] = [...(favorites[language] ?? []), quoteId];
      await this.users.setFavoriteQuotes(uid, favorites, trx);
    });
  }

  /** Removing one that is not there is not an error (as on the original platform). */
  async remove(uid: string, language: string, quoteId: string): Promise<void> {
    await this.users.inTransaction(async (trx) => {
      const user = await this.users.lock(uid, trx);
      if (!user) throw new AppError(404, MESSAGES.userNotFound);
      const favorites = user.favoriteQuotes;
      const ids = favorites[language];
      if (!ids?.includes(quoteId)) return;
      const rest = ids.filter((id) => id !== quoteId);
      if (rest.length === 0) delete favorites[language];
      else favorites[language] = rest;
      await this.users.setFavoriteQuotes(uid, favorites, trx);
    });
  }
}
