import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../common/clock';
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
}

/**
 * Where every import gets its writer (the write path of ImportWriter): the original's dump, our account export, and
 * callers outside portability that write records through it. One writer per run: `open`, `write` batches, `finish`
 * (the derived-state step), then `close` (also after a failure).
 */
@Injectable()
export class ImportWriters {
  constructor(
    private readonly users: UsersWriterRepository,
    private readonly results: ResultsWriterRepository,
    private readonly collections: CollectionsWriterRepository,
    private readonly derived: DerivedStateService,
    private readonly clock: Clock,
  ) {}

  open(options: WriterOptions = {}): ImportWriter {
    return options.dryRun === true
      ? new DryRunWriter(this.results, this.collections)
      : new DatabaseImportWriter(this.users, this.results, this.collections, this.derived, this.clock);
  }
}
