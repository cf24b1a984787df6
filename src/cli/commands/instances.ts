import { AccountFileSigningModule } from '../../modules/portability/signing/account-file-signing.module';
import {
  AccountFileSigningService,
  type TrustedInstance,
} from '../../modules/portability/signing/account-file-signing.service';
import { instanceId, publicKey } from '../arguments';
import type { CommandGroup } from '../cli-context';

const modules = [AccountFileSigningModule];

const describe = (k: TrustedInstance) =>
  `${k.instanceId}  ${k.fingerprint}  ${k.publicKey}  trusted ${new Date(k.trustedAt).toISOString()}` +
  (k.note === '' ? '' : `  (${k.note})`);

/**
 * Signed account files (docs/account-files.md): this instance's signing key, and the other instances whose files
 * `import account` takes as they are (the trusted path). Everything else imports only with `--untrusted`.
 */
export const instancesCommands: CommandGroup = (program, cli) => {
  const group = program
    .command('instances')
    .description(
      'the key account files are signed with here, and the other instances whose files are trusted',
    );
  group
    .command('show')
    .description("this instance's id and the public key of its signatures (as GET /configuration/instance)")
    .action(() =>
      cli.run(modules, async (app) => {
        const me = await app.get(AccountFileSigningService).identity();
        return [
          `instance id  ${me.instanceId}`,
          `public key   ${me.publicKey}`,
          `fingerprint  ${me.fingerprint}`,
          `key          ${me.keySource === 'environment' ? 'from EXPORT_SIGNING_KEY' : 'kept in the database'}`,
          `on another instance: npm run cli -- instances trust ${me.publicKey} --instance ${me.instanceId}`,
        ].join('\n');
      }),
    );
  group
    .command('trust')
    .description("trust another instance's key: account files it signed import as they are")
    .argument('<publicKey>', "the other instance's public key (its GET /configuration/instance)", publicKey)
    .requiredOption('--instance <instanceId>', "the other instance's id, as it publishes it", instanceId)
    .option('--note <text>', 'who runs it, why it is trusted', '')
    .action((key: string, options: { instance: string; note: string }) =>
      cli.run(modules, async (app) => {
        const { added, key: trusted } = await app
          .get(AccountFileSigningService)
          .trust(key, options.instance, options.note);
        return `${added ? 'trusted' : 'already trusted, updated'}: ${describe(trusted)}`;
      }),
    );
  group
    .command('list')
    .description('the trusted instances, oldest first')
    .action(() =>
      cli.run(modules, async (app) => {
        const keys = await app.get(AccountFileSigningService).trusted();
        return keys.length === 0 ? 'no instance is trusted' : keys.map(describe).join('\n');
      }),
    );
  group
    .command('forget')
    .description('stop trusting a key: its files then import only with --untrusted')
    .argument('<key>', 'its public key, fingerprint (SHA256:...) or instance id')
    .action((which: string) =>
      cli.run(modules, async (app) => {
        const gone = await app.get(AccountFileSigningService).forget(which);
        return gone.length === 0
          ? `no trusted key is ${which}`
          : gone.map((k) => `no longer trusted: ${describe(k)}`).join('\n');
      }),
    );
};
