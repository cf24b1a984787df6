import { TRIBE_LIMITS } from './limits';

/**
 * Text that players send to each other. The client inserts chat messages, player names and room names into its
 * page as HTML (`tribe-chat.ts` appends the message as HTML, `tribe-user-list.ts` and the public room list insert
 * names unescaped), so whatever the server relays must already be safe there.
 */

/** Control characters, lone surrogates and the bidirectional overrides (they could reverse the text around them). */
export const UNWANTED = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/gu;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const KEPT_AS_IS = /^[A-Za-z0-9_. ]$/;

/**
 * A chat message as the client expects it: every character but ASCII letters, digits, `_`, `.` and space becomes a
 * numeric character reference. That is the client's own `escapeHTML` rule, which its mention check and emoji lookup
 * rely on (`&#64;name`, `&#58;smile&#58;`); characters outside the BMP become one reference, not two halves.
 */
export function escapeChat(message: string): string {
  let out = '';
  for (const char of message) out += KEPT_AS_IS.test(char) ? char : `&#${char.codePointAt(0)};`;
  return out;
}

/** A chat message cleaned for relaying, or null when nothing is left or it is too long. */
export function chatMessage(raw: string): string | null {
  const cleaned = raw.replace(LONE_SURROGATE, '').replace(UNWANTED, ' ').trim();
  if (cleaned === '' || cleaned.length > TRIBE_LIMITS.chatMaxLength) return null;
  return escapeChat(cleaned);
}

/**
 * Why a room name is refused, or null. The lobby sets it as text but the public room list inserts it as HTML, so the
 * characters that could open markup or an attribute are refused rather than escaped (escaped, the lobby would show
 * the references literally).
 */
export function roomNameProblem(name: string): string | null {
  if (name.length === 0) return 'Room name cannot be empty';
  if (name.length > TRIBE_LIMITS.roomNameMaxLength)
    return `Room name cannot be longer than ${TRIBE_LIMITS.roomNameMaxLength} characters`;
  if (/[<>&"`]/.test(name)) return 'Room name cannot contain <, >, &, " or `';
  if (name.replace(LONE_SURROGATE, '').replace(UNWANTED, '') !== name)
    return 'Room name cannot contain control characters';
  return null;
}

/** A new room's name: its creator's name is a valid account name, so this is always a valid room name. */
export function defaultRoomName(creatorName: string): string {
  return `${creatorName}'s room`;
}

/** Same-name check of two players (account names are unique case-insensitively). */
export function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
