import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AppError } from '../../../common/app-error';
import { Clock } from '../../../common/clock';
import { APP_ENV, type AppEnv } from '../../../config/env';
import {
  fingerprint,
  InstanceKey,
  newKeyPair,
  privateKeyFrom,
  publicKeyFrom,
  rawPublicKey,
  sameKey,
  type SignatureCheck,
} from './account-file-signature';
import { AccountFileKeysRepository, type TrustedKeyRow } from './account-file-keys.repository';

/** This instance as other instances see it (`GET /configuration/instance`, `instances show`). */
export interface InstanceIdentity {
  instanceId: string;
  algorithm: 'Ed25519';
  /** The raw 32-byte public key, base64url: what another instance's operator trusts. */
  publicKey: string;
  /** `SHA256:...` of the key, to compare by eye. */
  fingerprint: string;
  /** Where the key is kept: made on first use and stored in the database, or given by EXPORT_SIGNING_KEY. */
  keySource: 'database' | 'environment';
}

export interface TrustedInstance {
  instanceId: string;
  publicKey: string;
  fingerprint: string;
  note: string;
  trustedAt: number;
}

/** Which import path a file takes, and why (the summary's first line). */
export type FileTrust =
  | { trusted: true; signer: string }
  | {
      trusted: false;
      reason: string;
      signer?: { instanceId: string; publicKey: string; fingerprint: string };
    };

const INSTANCE_ID = /^[A-Za-z0-9_.-]{1,64}$/;

/** The identity row could not be read back after it was made (it was deleted meanwhile). */
export const IDENTITY_UNAVAILABLE = 'The instance identity could not be read';

const trustedInstance = (row: TrustedKeyRow): TrustedInstance => ({
  instanceId: row.instance_id,
  publicKey: row.public_key,
  fingerprint: fingerprint(row.public_key),
  note: row.note,
  trustedAt: row.trusted_at,
});

/**
 * Signed account files (issue 29): this instance's Ed25519 key (EXPORT_SIGNING_KEY, or made on first use and kept in
 * the database) with the instance id published beside it, the keys of other instances its operator trusts, and what
 * a file's signature means here. The private key never leaves this service (no log line, no answer holds it).
 */
@Injectable()
export class AccountFileSigningService implements OnModuleInit {
  private readonly logger = new Logger(AccountFileSigningService.name);
  private key: Promise<{ key: InstanceKey; source: InstanceIdentity['keySource'] }> | null = null;

  constructor(
    private readonly repository: AccountFileKeysRepository,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /** A key given by the environment that is not an Ed25519 private key stops the boot (with what is wrong). */
  onModuleInit(): void {
    const { signingKey } = this.env.accountFiles;
    if (signingKey !== undefined) privateKeyFrom(signingKey);
  }

  /** The key exports are signed with (read once per process; a failed read is tried again next time). */
  async instanceKey(): Promise<InstanceKey> {
    return (await this.loadKey()).key;
  }

  async identity(): Promise<InstanceIdentity> {
    const { key, source } = await this.loadKey();
    return {
      instanceId: key.instanceId,
      algorithm: 'Ed25519',
      publicKey: key.publicKey,
      fingerprint: fingerprint(key.publicKey),
      keySource: source,
    };
  }

  private loadKey(): Promise<{ key: InstanceKey; source: InstanceIdentity['keySource'] }> {
    this.key ??= this.readKey().catch((e: unknown) => {
      this.key = null;
      throw e;
    });
    return this.key;
  }

  private async readKey(): Promise<{ key: InstanceKey; source: InstanceIdentity['keySource'] }> {
    const { signingKey, instanceId } = this.env.accountFiles;
    let row = await this.repository.identity();
    if (row === undefined) {
      const pair = signingKey === undefined ? newKeyPair() : null;
      await this.repository.createIdentity(
        {
          instance_id: instanceId ?? `instance-${randomBytes(8).toString('hex')}`,
          private_key: pair?.privateKey ?? null,
          public_key: pair?.publicKey ?? null,
        },
        this.clock.now(),
      );
      row = await this.repository.identity();
      if (pair !== null && row?.public_key === pair.publicKey)
        this.logger.log({ fingerprint: fingerprint(pair.publicKey) }, 'account file signing key made');
    }
    if (row === undefined) throw new AppError(503, IDENTITY_UNAVAILABLE);
    const id = instanceId ?? row.instance_id;
    if (signingKey !== undefined)
      return { key: new InstanceKey(id, privateKeyFrom(signingKey)), source: 'environment' };
    if (row.private_key === null) {
      const pair = newKeyPair();
      await this.repository.storeKey(pair.privateKey, pair.publicKey);
      row = (await this.repository.identity()) ?? row;
    }
    return { key: new InstanceKey(id, privateKeyFrom(row.private_key as string)), source: 'database' };
  }

  trusted(): Promise<TrustedInstance[]> {
    return this.repository.trustedKeys().then((rows) => rows.map(trustedInstance));
  }

  /** Trusts another instance's public key: files it signed import as they are. */
  async trust(
    publicKey: string,
    instanceId: string,
    note = '',
  ): Promise<{ added: boolean; key: TrustedInstance }> {
    const key = publicKeyFrom(publicKey);
    if (key === null)
      throw new AppError(400, 'not an Ed25519 public key: give the raw key, base64url (43 characters)');
    if (!INSTANCE_ID.test(instanceId))
      throw new AppError(400, 'the instance id must be 1-64 letters, digits, dots, underscores or hyphens');
    const raw = rawPublicKey(key);
    if (sameKey(raw, (await this.instanceKey()).publicKey))
      throw new AppError(400, "that is this instance's own key: its files are trusted already");
    const row: TrustedKeyRow = {
      public_key: raw,
      instance_id: instanceId,
      note,
      trusted_at: this.clock.now(),
    };
    const added = await this.repository.trust(row);
    const stored = (await this.repository.trustedKey(raw)) ?? row;
    return { added, key: trustedInstance(stored) };
  }

  /** Stops trusting a key, named by its public key, its fingerprint or its instance id. */
  async forget(which: string): Promise<TrustedInstance[]> {
    const gone = (await this.trusted()).filter(
      (k) => k.publicKey === which || k.fingerprint === which || k.instanceId === which,
    );
    for (const k of gone) await this.repository.forget(k.publicKey);
    return gone;
  }

  /** The import path a file's signature earns: trusted when it verifies with this instance's key or a trusted one. */
  async trustOf(check: SignatureCheck): Promise<FileTrust> {
    if (check.state === 'unsigned') return { trusted: false, reason: 'the file is not signed' };
    if (check.state === 'invalid') return { trusted: false, reason: check.reason };
    const signer = {
      instanceId: check.instanceId,
      publicKey: check.publicKey,
      fingerprint: fingerprint(check.publicKey),
    };
    const own = await this.instanceKey();
    if (sameKey(check.publicKey, own.publicKey))
      return check.instanceId === own.instanceId
        ? { trusted: true, signer: `this instance (${own.instanceId}, key ${signer.fingerprint})` }
        : {
            trusted: false,
            reason: `signed with this instance's key under another instance id (${check.instanceId})`,
            signer,
          };
    const known = await this.repository.trustedKey(check.publicKey);
    if (known === undefined)
      return {
        trusted: false,
        reason: `signed by a key this instance does not trust (instance ${check.instanceId}, key ${signer.fingerprint})`,
        signer,
      };
    if (known.instance_id !== check.instanceId)
      return {
        trusted: false,
        reason: `signed by the trusted key of ${known.instance_id} under another instance id (${check.instanceId})`,
        signer,
      };
    return { trusted: true, signer: `trusted instance ${known.instance_id} (key ${signer.fingerprint})` };
  }
}
