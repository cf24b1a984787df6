import { Logger } from '@nestjs/common';
import { loadEnv } from '../../../config/env';
import { createChatPlatformClient, createEmailSender } from '../users.module';
import { LoggingEmailSender, SmtpEmailSender } from '../email/email-sender';
import { DevChatPlatformClient, HttpChatPlatformClient } from './chat-platform-client';

// The dev client logs every made-up account for the developer watching the console; not in the test output.
beforeAll(() => Logger.overrideLogger(false));

const env = (source: Record<string, string>, mode: 'dev' | 'production' = 'production') =>
  loadEnv({
    DATABASE_URL: 'postgres://x',
    REDIS_URL: 'redis://x',
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: 'i',
    OIDC_AUDIENCE: 'a',
    OIDC_JWKS_URL: 'http://j',
    MODE: mode,
    ...source,
  });

describe('chat platform adapter choice', () => {
  it('talks to the configured platform in production', () => {
    const client = createChatPlatformClient(env({ CHAT_CLIENT_ID: 'abc' }));
    expect(client).toBeInstanceOf(HttpChatPlatformClient);
  });

  it('makes up accounts in dev mode without a client id, one stable account per token', async () => {
    const client = createChatPlatformClient(env({}, 'dev'));
    expect(client).toBeInstanceOf(DevChatPlatformClient);
    const a = await client.currentAccount('Bearer', 'token-a');
    expect(a).toEqual({ id: expect.stringMatching(/^\d+$/), avatar: null });
    expect(await client.currentAccount('Bearer', 'token-a')).toEqual(a);
    expect((await client.currentAccount('Bearer', 'token-b'))?.id).not.toBe(a?.id);
  });

  it('builds the authorize URL from the environment (Discord by default)', () => {
    const url = new URL(
      createChatPlatformClient(
        env({ CHAT_CLIENT_ID: 'c1', CHAT_REDIRECT_URI: 'https://site.example/verify?x=1&y=2' }),
      ).authorizeUrl('0123456789abcdef0123'),
    );
    expect(`${url.origin}${url.pathname}`).toBe('https://discord.com/oauth2/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe('https://site.example/verify?x=1&y=2');
    expect(url.searchParams.get('client_id')).toBe('c1');
    expect(url.searchParams.get('state')).toBe('0123456789abcdef0123');
  });
});

describe('mail adapter choice', () => {
  it('sends through SMTP_URL in production, logs in dev or without a relay', () => {
    expect(createEmailSender(env({ SMTP_URL: 'smtp://127.0.0.1:2525' }))).toBeInstanceOf(SmtpEmailSender);
    expect(createEmailSender(env({}))).toBeInstanceOf(LoggingEmailSender);
    expect(createEmailSender(env({ SMTP_URL: 'smtp://127.0.0.1:2525' }, 'dev'))).toBeInstanceOf(
      LoggingEmailSender,
    );
  });
});
