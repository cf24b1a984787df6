import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../../infra/database/database';

export interface IdentityRow {
  instance_id: string;
  private_key: string | null;
  public_key: string | null;
}

export interface TrustedKeyRow {
  public_key: string;
  instance_id: string;
  note: string;
  trusted_at: number;
}

/** This instance's identity (id and signing key) and the other instances' keys its operator trusts. */
@Injectable()
export class AccountFileKeysRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  identity(): Promise<IdentityRow | undefined> {
    return this.db
      .selectFrom('instance_identity')
      .select(['instance_id', 'private_key', 'public_key'])
      .executeTakeFirst();
  }

  /** The first process to get here makes the identity; the others keep theirs out and read it. */
  async createIdentity(row: IdentityRow, now: number): Promise<void> {
    await this.db
      .insertInto('instance_identity')
      .values({ ...row, created_at: now })
      .onConflict((oc) => oc.column('singleton').doNothing())
      .execute();
  }

  /** An identity made while the key came from the environment gets its own key (once, whoever is first). */
  async storeKey(privateKey: string, publicKey: string): Promise<void> {
    await this.db
      .updateTable('instance_identity')
      .set({ private_key: privateKey, public_key: publicKey })
      .where('private_key', 'is', null)
      .execute();
  }

  trustedKeys(): Promise<TrustedKeyRow[]> {
    return this.db
      .selectFrom('trusted_instance_keys')
      .select(['public_key', 'instance_id', 'note', 'trusted_at'])
      .orderBy('trusted_at')
      .execute();
  }

  async trustedKey(publicKey: string): Promise<TrustedKeyRow | undefined> {
    return this.db
      .selectFrom('trusted_instance_keys')
      .select(['public_key', 'instance_id', 'note', 'trusted_at'])
      .where('public_key', '=', publicKey)
      .executeTakeFirst();
  }

  /** Trusts a key (or renames what it is trusted as); true when it was not trusted before. */
  async trust(row: TrustedKeyRow): Promise<boolean> {
    const before = await this.trustedKey(row.public_key);
    await this.db
      .insertInto('trusted_instance_keys')
      .values(row)
      .onConflict((oc) =>
        oc.column('public_key').doUpdateSet({ instance_id: row.instance_id, note: row.note }),
      )
      .execute();
    return before === undefined;
  }

  async forget(publicKey: string): Promise<boolean> {
    const deleted = await this.db
      .deleteFrom('trusted_instance_keys')
      .where('public_key', '=', publicKey)
      .executeTakeFirst();
    return deleted.numDeletedRows > 0n;
  }
}
