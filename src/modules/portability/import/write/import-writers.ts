import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../common/clock';
import { ServerConfigurationService } from '../../../../common/server-configuration/server-configuration.service';
import { CollectionsWriterRepository } from './collections-writer.repository';
import { DatabaseImportWriter } from './database-writer';
import { DerivedStateService } from './derived-state.service';
import { DryRunWriter } from './dry-run-writer';
import type { ImportWriter } from './import-writer';
import { ResultsWriterRepository } from './results-writer.repository';
import { UsersWriterRepository } from './users-writer.repository';

export interface WriterOptions {
  /** Read everything, write nothing (`--dry-run`): answers what the database writer would. */
  dryRun?: boolean;
  /**
   * Results change their accounts as submissions do, instead of the source's counters and bests being taken: each new
   * result adds its test, typing time and XP (computed here by the live rules), moves the streak, sets the personal
   * bests and tag bests it beats, and a result with `held` waits for a moderator (result-replay.ts). The untrusted
   * account import writes so, and so does a caller that writes results for accounts that already exist.
   */
  deriveFromResults?: boolean;
}

/**
 * Where every import gets its writer (the write path of ImportWriter): the original's dump, our account export, and
 * callers outside portability that write records through it. One writer per run: `open`, `write` batches, `finish`
 * (the derived-state step: boards, last result times, activity), then `close` (also after a failure). For results
 * of accounts that exist here, e.g. reinstated ones:
 *
 *     const writer = writers.open({ deriveFromResults: true });
 *     try {
 *       await writer.write('results', rows.map((row) => ({ source: { collection: 'results', id: row.id }, row })));
 *       await writer.finish();
 *     } finally {
 *       await writer.close();
 *     }
 */
@Injectable()
export class ImportWriters {
  constructor(
    private readonly users: UsersWriterRepository,
    private readonly results: ResultsWriterRepository,
    private readonly collections: CollectionsWriterRepository,
    private readonly derived: DerivedStateService,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  open(options: WriterOptions = {}): ImportWriter {
    return options.dryRun === true
      ? new DryRunWriter(this.results, this.collections)
      : new DatabaseImportWriter(
          this.users,
          this.results,
          this.collections,
          this.derived,
          this.configuration,
          this.clock,
          options.deriveFromResults === true,
        );
  }
}
