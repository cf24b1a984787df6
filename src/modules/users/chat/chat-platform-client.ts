import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';

export interface ChatAccount {
  id: string;
  avatar: string | null;
}

/** The chat platform (a Discord-compatible OAuth2 provider) users link their account with. */
export abstract class ChatPlatformClient {
  /** Where the browser goes to authorise us (implicit grant: the token comes back to the redirect URI). */
  abstract authorizeUrl(state: string): string;
  /** The account the access token belongs to; null when the platform does not say (bad token, outage). */
  abstract currentAccount(tokenType: string, accessToken: string): Promise<ChatAccount | null>;
}

export interface ChatPlatformSettings {
  authorizeUrl: string;
  apiUrl: string;
  clientId?: string;
  redirectUri?: string;
}

function authorizeUrl(settings: ChatPlatformSettings, state: string): string {
  const url = new URL(settings.authorizeUrl);
  url.searchParams.set('client_id', settings.clientId ?? '');
  if (settings.redirectUri) url.searchParams.set('redirect_uri', settings.redirectUri);
  url.searchParams.set('response_type', 'token');
  url.searchParams.set('scope', 'identify');
  url.searchParams.set('state', state);
  return url.toString();
}

/** The real API: `GET <apiUrl>/users/@me` with the user's token. */
export class HttpChatPlatformClient extends ChatPlatformClient {
  private readonly logger = new Logger(HttpChatPlatformClient.name);

  constructor(
    private readonly settings: ChatPlatformSettings,
    private readonly timeoutMs = 5000,
  ) {
    super();
    if (!settings.clientId) this.logger.warn('CHAT_CLIENT_ID is not set: chat account linking cannot work');
  }

  authorizeUrl(state: string): string {
    return authorizeUrl(this.settings, state);
  }

  async currentAccount(tokenType: string, accessToken: string): Promise<ChatAccount | null> {
    try {
      const response = await fetch(`${this.settings.apiUrl.replace(/\/+$/, '')}/users/@me`, {
        headers: { authorization: `${tokenType} ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        this.logger.warn({ status: response.status }, 'chat platform refused the token');
        return null;
      }
      const body = (await response.json()) as { id?: unknown; avatar?: unknown };
      if (typeof body.id !== 'string' || body.id === '') return null;
      return { id: body.id, avatar: typeof body.avatar === 'string' ? body.avatar : null };
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'chat platform unreachable');
      return null;
    }
  }
}

/**
 * Dev mode without CHAT_CLIENT_ID: no platform to talk to, so any token stands for a stable made-up account
 * (derived from the token), which lets the link flow be tried locally.
 */
export class DevChatPlatformClient extends ChatPlatformClient {
  private readonly logger = new Logger(DevChatPlatformClient.name);

  constructor(private readonly settings: ChatPlatformSettings) {
    super();
  }

  authorizeUrl(state: string): string {
    return authorizeUrl(this.settings, state);
  }

  currentAccount(_tokenType: string, accessToken: string): Promise<ChatAccount | null> {
    const id = BigInt(`0x${createHash('sha256').update(accessToken).digest('hex').slice(0, 15)}`).toString();
    this.logger.log({ chatId: id }, 'dev chat platform: made-up account for the token');
    return Promise.resolve({ id, avatar: null });
  }
}
