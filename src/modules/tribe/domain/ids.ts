import { createHash, randomBytes, randomInt } from 'node:crypto';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ALPHANUMERIC = `${LETTERS}0123456789`;
/** socket.io's own id length: its sharded Redis adapter tells a socket's private room from a shared one by it. */
export const PLAYER_ID_LENGTH = 20;

/**
 * A player id (the socket id the client sees). The client puts it into CSS selectors unescaped (`tr#${id}`,
 * `[id=${id}]`), where an id must not start with a digit and `-`/`_` are risky, so it is a letter followed by letters
 * and digits: about 113 bits of randomness, like socket.io's own ids.
 */
export function newPlayerId(): string {
  let id = LETTERS[randomInt(LETTERS.length)] as string;
  while (id.length < PLAYER_ID_LENGTH) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

/** A room code: 6 hex digits, the format the client's join form accepts. */
export function newRoomCode(): string {
  return randomBytes(3).toString('hex');
}

/** The seed every member's word generator starts from (the client seeds with `String(seed)`). */
export function newSeed(): number {
  return randomInt(1, 2 ** 31);
}

/** What bans an unverified player: a hash of its address (addresses themselves are not stored). */
export function addressKey(address: string): string {
  return createHash('sha256').update(`tribe:${address}`).digest('base64url').slice(0, 22);
}

/** Replica ids: random per process start, so a restarted replica is a new one. */
export function newReplicaId(): string {
  return randomBytes(8).toString('hex');
}
