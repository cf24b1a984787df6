import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../../leaderboards/leaderboards.module';
import { AccountImportRepository } from './account/account-import.repository';
import { AccountImportService } from './account/account-import.service';
import { OriginalImportService } from './original-import.service';
import { CollectionsWriterRepository } from './write/collections-writer.repository';
import { DerivedStateRepository } from './write/derived-state.repository';
import { DerivedStateService } from './write/derived-state.service';
import { ResultsWriterRepository } from './write/results-writer.repository';
import { UsersWriterRepository } from './write/users-writer.repository';

/**
 * The import side of data portability (docs/architecture.md "The import pipeline"): the write path every reader
 * shares, the original platform's dump reader, and our own account export's reader. Used by the operator CLI; no
 * routes. The leaderboards feature rebuilds the boards from what was imported.
 */
@Module({
  imports: [LeaderboardModule],
  providers: [
    UsersWriterRepository,
    ResultsWriterRepository,
    CollectionsWriterRepository,
    DerivedStateRepository,
    DerivedStateService,
    OriginalImportService,
    AccountImportRepository,
    AccountImportService,
  ],
  exports: [OriginalImportService, AccountImportService, DerivedStateService],
})
export class ImportModule {}
