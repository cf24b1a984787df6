import { AdminModule } from '../../modules/admin/admin.module';
import { AdminService } from '../../modules/admin/admin.service';
import type { CommandGroup } from '../cli-context';
import { LIFETIME, premiumExpiry, uid } from '../arguments';

const modules = [AdminModule];

export const premiumCommands: CommandGroup = (program, cli) => {
  const group = program.command('premium').description('set or clear premium');
  group
    .command('set')
    .description('give premium until a date, or for life')
    .argument('<uid>', 'account uid', uid)
    .argument(
      '<until>',
      'ISO date (2027-01-31 = midnight UTC), date-time with a zone (2027-01-31T18:00:00Z), never or lifetime',
      premiumExpiry(),
    )
    .action((who: string, until: number) =>
      cli.run(modules, async (app) => {
        await app.get(AdminService).setPremium(who, until);
        return `premium of ${who} set to ${until === LIFETIME ? 'lifetime' : new Date(until).toISOString()}`;
      }),
    );
  group
    .command('clear')
    .description('remove premium')
    .argument('<uid>', 'account uid', uid)
    .action((who: string) =>
      cli.run(modules, async (app) => {
        await app.get(AdminService).clearPremium(who);
        return `premium of ${who} cleared`;
      }),
    );
};
