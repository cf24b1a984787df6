import { Module } from '@nestjs/common';
import { LeaderboardModule } from '../leaderboards/leaderboards.module';
import { AccountExportService } from './export/account-export.service';
import { ExportController } from './export/export.controller';
import { ExportRepository } from './export/export.repository';
import { InstanceKeyController } from './signing/instance-key.controller';
import { AccountFileSigningModule } from './signing/account-file-signing.module';

/**
 * Data portability (issue 22): a user's whole account out, as NDJSON (export/; `GET /users/export` and the
 * `users export` operator command), and accounts or the original platform's dumps in (import/). The route lives
 * under /users but belongs here: it reads every feature's tables of one account in one snapshot. Exports are signed
 * (signing/): `GET /configuration/instance` publishes the public key and the instance id other instances trust.
 */
@Module({
  imports: [LeaderboardModule, AccountFileSigningModule],
  controllers: [ExportController, InstanceKeyController],
  providers: [ExportRepository, AccountExportService],
  exports: [AccountExportService],
})
export class PortabilityModule {}
