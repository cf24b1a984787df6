import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateBy,
  type ValidationArguments,
} from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';
import { ToBoolean, ToNumber, ToText } from '../../../common/validation/transforms';
import {
  isLeaderboardMode,
  isLeaderboardMode2,
  LEADERBOARD_MODES,
  type LeaderboardMode,
} from '../leaderboard-rules';

/** Spec "Leaderboards": time 15, 60; words 10, 25, 50, 100. A wrong mode is reported on `mode` alone. */
const IsLeaderboardMode2 = () =>
  ValidateBy({
    name: 'isLeaderboardMode2',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const mode = (args?.object as { mode?: unknown } | undefined)?.mode;
        return !isLeaderboardMode(mode) || isLeaderboardMode2(mode, value);
      },
      defaultMessage: () =>
        `must be one of ${LEADERBOARD_MODES.time.join(', ')} for time and ${LEADERBOARD_MODES.words.join(', ')} for words`,
    },
  });

/** The board: language from the language list, mode and mode2 as the spec lists them. */
export class BoardQuery {
  @IsLanguage()
  language!: string;

  @IsIn(Object.keys(LEADERBOARD_MODES))
  mode!: LeaderboardMode;

  @ToText()
  @IsLeaderboardMode2()
  mode2!: string;

  /** Only the caller and their accepted connections; needs a signed-in caller. */
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  friendsOnly: boolean = false;
}

/** `GET /leaderboards` (spec: page 0-based, pageSize 10-200, default 50). */
export class LeaderboardPageQuery extends BoardQuery {
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  page: number = 0;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(10)
  @Max(200)
  pageSize: number = 50;
}

/** `GET /leaderboards/daily`: `daysBefore` 0 (today, default) or 1 (yesterday). */
export class DailyPageQuery extends LeaderboardPageQuery {
  @IsOptional()
  @ToNumber()
  @IsIn([0, 1])
  daysBefore: 0 | 1 = 0;
}

export class DailyRankQuery extends BoardQuery {
  @IsOptional()
  @ToNumber()
  @IsIn([0, 1])
  daysBefore: 0 | 1 = 0;
}

/** `GET /leaderboards/xp/weekly`: `weeksBefore` 0 (this week, default) or 1 (last week), as the original client sends. */
export class WeeklyRankQuery {
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  friendsOnly: boolean = false;

  @IsOptional()
  @ToNumber()
  @IsIn([0, 1])
  weeksBefore: 0 | 1 = 0;
}

export class WeeklyPageQuery extends WeeklyRankQuery {
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  page: number = 0;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(10)
  @Max(200)
  pageSize: number = 50;
}
