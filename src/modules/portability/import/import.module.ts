import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../../leaderboards/leaderboards.module';
import { AccountFileSigningModule } from '../signing/account-file-signing.module';
import { AccountImportRepository } from './account/account-import.repository';
import { AccountImportService } from './account/account-import.service';
import { OriginalImportService } from './original-import.service';
import { ReinstateRefusedService } from './reinstate-refused.service';
import { ResultsModule } from '../../results/results.module';
import { CollectionsWriterRepository } from './write/collections-writer.repository';
import { DerivedStateRepository } from './write/derived-state.repository';
import { DerivedStateService } from './write/derived-state.service';
import { ImportWriters } from './write/import-writers';
import { ResultsWriterRepository } from './write/results-writer.repository';
import { UsersWriterRepository } from './write/users-writer.repository';

/**
 * The import side of data portability (docs/architecture.md "The import pipeline"): the write path every reader
 * shares (ImportWriters), the original platform's dump reader, and our own account export's reader. Used by the
 * operator CLI; no routes. ImportWriters is exported for callers outside portability that write records the way an
 * import does (then rebuild what derives from them). The leaderboards feature rebuilds the boards from what was
 * imported.
 */
@Module({
  imports: [LeaderboardModule, AccountFileSigningModule, ResultsModule],
  providers: [
    UsersWriterRepository,
    ResultsWriterRepository,
    CollectionsWriterRepository,
    DerivedStateRepository,
    DerivedStateService,
    ImportWriters,
    OriginalImportService,
    AccountImportRepository,
    AccountImportService,
    ReinstateRefusedService,
  ],
  exports: [OriginalImportService, AccountImportService, ImportWriters, ReinstateRefusedService],
})
export class ImportModule {}
