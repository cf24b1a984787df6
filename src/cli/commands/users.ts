import { AdminModule } from '../../modules/admin/admin.module';
import { AdminService } from '../../modules/admin/admin.service';
import { LeaderboardModule } from '../../modules/leaderboards/leaderboards.module';
import type { CommandGroup } from '../cli-context';
import { uid } from '../arguments';
import { registerUsersExport } from './users-export';

// A ban purges the user's board entries, an unban queues their all-time boards for the next live update: the
// leaderboards feature takes part through its lifecycle handlers.
const modules = [AdminModule, LeaderboardModule];

export const usersCommands: CommandGroup = (program, cli) => {
  const group = program.command('users').description('ban, unban or export accounts');
  group
    .command('ban')
    .description('ban an account and remove it from the leaderboards')
    .argument('<uid>', 'account uid', uid)
    .action((who: string) =>
      cli.run(modules, async (app) => {
        await app.get(AdminService).setBanned(who, true);
        return `banned ${who}`;
      }),
    );
  group
    .command('unban')
    .description('lift a ban (the all-time boards take the account back at the next live update)')
    .argument('<uid>', 'account uid', uid)
    .action((who: string) =>
      cli.run(modules, async (app) => {
        await app.get(AdminService).setBanned(who, false);
        return `unbanned ${who}`;
      }),
    );
  registerUsersExport(group, cli);
};
