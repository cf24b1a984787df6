import { AdminModule } from '../../modules/admin/admin.module';
import { AdminService } from '../../modules/admin/admin.service';
import type { CommandGroup } from '../cli-context';
import { permission, uid } from '../arguments';

const modules = [AdminModule];

export const permissionsCommands: CommandGroup = (program, cli) => {
  const group = program
    .command('permissions')
    .description('grant or revoke the admin and quoteMod permissions');
  group
    .command('grant')
    .description('give an account a permission (idempotent)')
    .argument('<uid>', 'account uid', uid)
    .argument('<permission>', 'admin or quoteMod', permission)
    .action((who: string, what: 'admin' | 'quoteMod') =>
      cli.run(modules, async (app) => {
        await app.get(AdminService).grantPermission(who, what);
        return `granted ${what} to ${who}`;
      }),
    );
  group
    .command('revoke')
    .description('take a permission away (idempotent)')
    .argument('<uid>', 'account uid', uid)
    .argument('<permission>', 'admin or quoteMod', permission)
    .action((who: string, what: 'admin' | 'quoteMod') =>
      cli.run(modules, async (app) => {
        const revoked = await app.get(AdminService).revokePermission(who, what);
        return revoked ? `revoked ${what} from ${who}` : `${who} did not have ${what}`;
      }),
    );
};
