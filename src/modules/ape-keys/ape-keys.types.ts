import type { Int } from '../../common/int';

/** A key as its owner sees it (spec "ApeKey"); never the secret or its hash. `lastUsedOn` is -1 until first use. */
export interface ApeKeyDetails {
  name: string;
  enabled: boolean;
  createdOn: Int;
  modifiedOn: Int;
  lastUsedOn: Int;
}

export interface GeneratedApeKey {
  /** `base64url("<apeKeyId>.<secret>")`, shown once. */
  apeKey: string;
  apeKeyId: string;
  apeKeyDetails: ApeKeyDetails;
}

export const APE_KEY_MESSAGES = {
  disabled: 'ApeKeys are currently disabled.',
  tooMany: 'Maximum number of ApeKeys have been generated',
  notFound: 'ApeKey not found',
} as const;
