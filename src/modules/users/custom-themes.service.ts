import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { CustomThemesRepository } from './custom-themes.repository';
import { normalizeThemeColors, type ThemeColors } from './theme-colors';
import { UsersRepository } from './users.repository';

/** docs/decisions/0024-users-names-and-limits.md. */
export const MAX_CUSTOM_THEMES = 20;
const THEME_NOT_FOUND = 'Custom theme not found';

@Injectable()
export class CustomThemesService {
  constructor(
    private readonly themes: CustomThemesRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  list(uid: string) {
    return this.themes.list(uid);
  }

  async add(uid: string, name: string, colors: ThemeColors) {
    const theme = { _id: newId(), name, colors: normalizeThemeColors(colors) };
    await this.users.inTransaction(async (trx) => {
      await this.users.lock(uid, trx);
      if ((await this.themes.count(uid, trx)) >= MAX_CUSTOM_THEMES) {
        throw new AppError(409, 'Maximum number of custom themes reached');
      }
      await this.themes.insert(uid, theme, this.clock.now(), trx);
    });
    return { _id: theme._id, name: theme.name };
  }

  async update(uid: string, id: string, name: string, colors: ThemeColors): Promise<void> {
    if (!(await this.themes.update(uid, id, name, normalizeThemeColors(colors))))
      throw new AppError(404, THEME_NOT_FOUND);
  }

  async delete(uid: string, id: string): Promise<void> {
    if (!(await this.themes.delete(uid, id))) throw new AppError(404, THEME_NOT_FOUND);
  }
}
