import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { hash } from 'bcrypt';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError } from '../../common/app-error';
import { formatApeKey } from '../../common/auth/ape-key-authenticator';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { bcryptInput, newApeKeySecret } from './ape-key-secret';
import { ApeKeyVerifierService } from './ape-key-verifier.service';
import { ApeKeysRepository } from './ape-keys.repository';
import { APE_KEY_MESSAGES, type ApeKeyDetails, type GeneratedApeKey } from './ape-keys.types';

/** The owner's management of their ApeKeys (spec "ApeKeys"); verification lives in ApeKeyVerifierService. */
@Injectable()
export class ApeKeysService implements OnModuleInit {
  private readonly logger = new Logger(ApeKeysService.name);

  constructor(
    private readonly repository: ApeKeysRepository,
    private readonly verifier: ApeKeyVerifierService,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: a reset deletes the user's keys. Deletion cascades from `users`.
    this.lifecycle.onReset('apeKeys', (uid, trx) => this.repository.deleteAllOf(uid, trx));
    for (const register of ['afterReset', 'afterDelete', 'afterBan'] as const) {
      this.lifecycle[register]('apeKeys', (uid) => this.verifier.evictUser(uid));
    }
  }

  /** The user's keys by id (the original's shape), oldest first. */
  async list(uid: string): Promise<Record<string, ApeKeyDetails>> {
    const keys: Record<string, ApeKeyDetails> = {};
    for (const { id, ...details } of await this.repository.listOf(uid)) keys[id] = details;
    return keys;
  }

  async generate(uid: string, name: string, enabled: boolean): Promise<GeneratedApeKey> {
    const { maxKeysPerUser, apeKeyBytes, apeKeySaltRounds } = (await this.configuration.get()).apeKeys;
    const id = newId();
    const secret = newApeKeySecret(apeKeyBytes);
    // Hashed before the transaction: bcrypt is slow and must not hold the lock.
    const secretHash = await hash(bcryptInput(secret), apeKeySaltRounds);
    const now = this.clock.now();
    await this.repository.transaction(async (trx) => {
      await this.repository.lockKeysOf(uid, trx);
      if ((await this.repository.countOf(uid, trx)) >= maxKeysPerUser) {
        throw new AppError(409, APE_KEY_MESSAGES.tooMany);
      }
      await this.repository.insert(uid, { id, name, enabled, hash: secretHash }, now, trx);
    });
    this.logger.log({ uid, apeKeyId: id }, 'ApeKey generated');
    return {
      apeKey: formatApeKey(id, secret),
      apeKeyId: id,
      apeKeyDetails: { name, enabled, createdOn: now, modifiedOn: now, lastUsedOn: -1 },
    };
  }

  async update(uid: string, id: string, changes: { name?: string; enabled?: boolean }): Promise<void> {
    const given: { name?: string; enabled?: boolean } = {};
    if (changes.name !== undefined) given.name = changes.name;
    if (changes.enabled !== undefined) given.enabled = changes.enabled;
    const found =
      Object.keys(given).length === 0
        ? await this.repository.exists(uid, id)
        : await this.repository.update(uid, id, given, this.clock.now());
    if (!found) throw new AppError(404, APE_KEY_MESSAGES.notFound);
    if (given.enabled !== undefined) await this.verifier.evictKey(id);
    this.logger.log({ uid, apeKeyId: id, ...given }, 'ApeKey updated');
  }

  async remove(uid: string, id: string): Promise<void> {
    if (!(await this.repository.remove(uid, id))) throw new AppError(404, APE_KEY_MESSAGES.notFound);
    await this.verifier.evictKey(id);
    this.logger.log({ uid, apeKeyId: id }, 'ApeKey deleted');
  }
}
