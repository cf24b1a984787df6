import { InvalidArgumentError } from 'commander';
import { PsasModule } from '../../modules/psas/psas.module';
import { PSA_LEVELS, PsasService } from '../../modules/psas/psas.service';
import type { CommandGroup } from '../cli-context';
import { isoDate } from '../arguments';

const modules = [PsasModule];

function level(value: string): number {
  const n = Number(value);
  if (!(PSA_LEVELS as readonly number[]).includes(n) || !/^-?\d$/.test(value)) {
    throw new InvalidArgumentError(
      `expected one of ${PSA_LEVELS.join(', ')} (-1 error, 0 notice, 1 success)`,
    );
  }
  return n;
}

/** Announcements every client shows on its next page load (`GET /psas`, cached a minute per replica). */
export const psasCommands: CommandGroup = (program, cli) => {
  const group = program.command('psas').description('public service announcements shown by the web client');
  group
    .command('list')
    .description('list the stored announcements')
    .action(() =>
      cli.run(modules, async (app) => {
        const psas = await app.get(PsasService).list();
        return psas.length === 0 ? 'no PSAs' : psas.map((psa) => JSON.stringify(psa)).join('\n');
      }),
    );
  group
    .command('add')
    .description('add an announcement')
    .argument('<message>', 'the text clients show')
    .option('--level <level>', '-1 error, 0 notice, 1 success', level)
    .option('--sticky', 'shown until the reader closes it')
    .option('--date <date>', 'when it happens, as an ISO date or date-time with a zone', isoDate)
    .action((message: string, options: { level?: number; sticky?: boolean; date?: number }) =>
      cli.run(modules, async (app) => {
        const psa = await app.get(PsasService).add({ message, ...options });
        return `added PSA ${psa._id}`;
      }),
    );
  group
    .command('remove')
    .description('remove an announcement')
    .argument('<id>', 'the announcement id (psas list)')
    .action((id: string) =>
      cli.run(modules, async (app) =>
        (await app.get(PsasService).remove(id)) ? `removed PSA ${id}` : `no PSA ${id}`,
      ),
    );
};
