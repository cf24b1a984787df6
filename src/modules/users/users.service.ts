import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError, MESSAGES } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import type { AuthContext } from '../../common/http/request-context';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { InboxService } from '../inbox/inbox.service';
import { AllTimeLeaderboardService } from '../leaderboards/all-time-leaderboard.service';
import { BlocklistRepository } from './blocklist.repository';
import { CustomThemesRepository } from './custom-themes.repository';
import { groupPersonalBests } from './personal-bests';
import { ResultFilterPresetsRepository } from './result-filter-presets.repository';
import { TagsService } from './tags.service';
import { currentTestActivity, utcDay, CURRENT_ACTIVITY_DAYS } from './test-activity';
import { discordFields, isPremium, profileDetails, streakView } from './user-views';
import { UserStatsRepository } from './user-stats.repository';
import { NAME_INDEX, uniqueViolation, UsersRepository } from './users.repository';
import type { SignupDto } from './dto/account.dto';

export const CAPTCHA_FAILED = 'Captcha challenge failed';
const NAME_UNAVAILABLE = 'Username unavailable';

/** The account itself: sign-up, the User resource, name availability. */
@Injectable()
export class UsersService implements OnModuleInit {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly stats: UserStatsRepository,
    private readonly themes: CustomThemesRepository,
    private readonly tags: TagsService,
    private readonly inbox: InboxService,
    private readonly captcha: CaptchaVerifier,
    private readonly configuration: ServerConfigurationService,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
    private readonly leaderboards: AllTimeLeaderboardService,
    private readonly filterPresets: ResultFilterPresetsRepository,
    private readonly blocklist: BlocklistRepository,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: a reset clears personal bests, activity, tags and custom themes (mail: the inbox module).
    this.lifecycle.onReset('users', async (uid, trx) => {
      await this.stats.deleteAllOf(uid, trx);
      await this.tags.deleteAllOf(uid, trx);
      await this.themes.deleteAllOf(uid, trx);
    });
  }

  async signup(auth: AuthContext, body: SignupDto, remoteIp: string): Promise<void> {
    if (!(await this.captcha.verify(body.captcha, remoteIp))) throw new AppError(422, CAPTCHA_FAILED);
    const owner = await this.users.nameOwner(body.name);
    if (owner !== undefined && owner !== auth.uid) throw new AppError(409, NAME_UNAVAILABLE);
    const email = auth.email !== '' ? auth.email : (body.email ?? '');
    // Domain facts §5.1: after the name check, as the original (a deleted banned account's name or email).
    if (await this.blocklist.contains({ name: body.name, email }))
      throw new AppError(409, 'Username or email blocked');
    try {
      await this.users.insert({ uid: auth.uid, name: body.name, email, addedAt: this.clock.now() });
    } catch (e) {
      // The unique indexes decide races: of many simultaneous sign-ups with one name, one wins.
      const index = uniqueViolation(e);
      if (index === NAME_INDEX) throw new AppError(409, NAME_UNAVAILABLE);
      if (index !== null) throw new AppError(409, 'User document already exists');
      throw e;
    }
    this.logger.log({ uid: auth.uid, name: body.name }, 'user created');
  }

  /** A name is available when nobody has it (case-insensitively) or the caller does. */
  async isNameAvailable(name: string, callerUid: string): Promise<boolean> {
    const owner = await this.users.nameOwner(name);
    return owner === undefined || (callerUid !== '' && owner === callerUid);
  }

  /** Spec "User": the required fields always, plus what the original platform's client reads. */
  async getUser(uid: string) {
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    const now = this.clock.now();
    const config = await this.configuration.get();
    const [pbRows, tags, customThemes, activity, inboxUnreadSize, allTimeLbs, resultFilterPresets] =
      await Promise.all([
        this.stats.personalBests(uid),
        this.tags.list(uid),
        this.themes.list(uid),
        this.stats.testActivity(uid, utcDay(now) - CURRENT_ACTIVITY_DAYS + 1),
        config.users.inbox.enabled ? this.inbox.unreadCount(uid) : Promise.resolve(0),
        this.leaderboards.profileRanks(uid),
        this.filterPresets.list(uid),
      ]);
    return {
      uid: user.uid,
      name: user.name,
      email: user.email,
      addedAt: user.addedAt,
      personalBests: groupPersonalBests(pbRows),
      completedTests: user.completedTests,
      startedTests: user.startedTests,
      timeTyping: user.timeTyping,
      xp: user.xp,
      streak: streakView(user),
      isPremium: isPremium(config, user, now),
      ...(user.premiumExpiresAt === null
        ? {}
        : { premium: { startTimestamp: user.premiumStartAt, expirationTimestamp: user.premiumExpiresAt } }),
      inboxUnreadSize,
      inventory: { badges: user.badges },
      banned: user.banned,
      lbOptOut: user.lbOptOut,
      ...(user.chatId === null ? {} : { chatId: user.chatId, chatAvatar: user.chatAvatar }),
      // The original client reads the link as discordId/discordAvatar (contract facts §12.1).
      ...discordFields(user),
      profileDetails: profileDetails(user),
      tags,
      customThemes,
      favoriteQuotes: user.favoriteQuotes,
      lbMemory: user.lbMemory,
      resultFilterPresets,
      allTimeLbs,
      testActivity: currentTestActivity(activity, now),
      ...(user.lastNameChangeAt === null ? {} : { lastNameChange: user.lastNameChangeAt }),
    };
  }
}
