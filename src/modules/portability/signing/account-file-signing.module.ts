import { Module } from '@nestjs/common';
import { AccountFileKeysRepository } from './account-file-keys.repository';
import { AccountFileSigningService } from './account-file-signing.service';

/** This instance's signing key and the keys it trusts: shared by the export (signs) and the account import (checks). */
@Module({
  providers: [AccountFileKeysRepository, AccountFileSigningService],
  exports: [AccountFileSigningService],
})
export class AccountFileSigningModule {}
