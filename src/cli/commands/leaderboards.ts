import { SingleBar } from 'cli-progress';
import { AppError } from '../../common/app-error';
import { LeaderboardModule } from '../../modules/leaderboards/leaderboards.module';
import {
  LeaderboardSnapshotService,
  REBUILD_STEPS,
} from '../../modules/leaderboards/leaderboard-snapshot.service';
import type { CommandGroup } from '../cli-context';

const modules = [LeaderboardModule];

export const leaderboardsCommands: CommandGroup = (program, cli) => {
  const group = program.command('leaderboards').description('all-time leaderboard maintenance');
  group
    .command('rebuild')
    .description('rebuild the all-time snapshot now (the scheduled job does it every few minutes)')
    .action(() =>
      cli.run(modules, async (app) => {
        const bar = new SingleBar({
          stream: cli.io.progress ?? process.stderr,
          format: 'rebuilding all-time leaderboards [{bar}] {value}/{total} {step}',
          noTTYOutput: cli.io.progress !== undefined,
        });
        bar.start(REBUILD_STEPS.length, 0, { step: '' });
        const summary = await app
          .get(LeaderboardSnapshotService)
          .rebuild((step, done) => bar.update(done, { step }))
          .finally(() => bar.stop());
        if (!summary) throw new AppError(409, 'another rebuild is running; try again when it has finished');
        return `rebuilt ${summary.boards} boards with ${summary.entries} entries in ${(summary.ms / 1000).toFixed(1)} s`;
      }),
    );
};
