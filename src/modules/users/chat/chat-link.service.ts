import { randomBytes } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../../common/app-error';
import { BlocklistRepository } from '../blocklist.repository';
import { CHAT_ID_INDEX, uniqueViolation, UsersRepository } from '../users.repository';
import { ChatPlatformClient } from './chat-platform-client';
import { ChatStateRepository } from './chat-state.repository';

/** How long an OAuth `state` stays good (the original platform's 60 s). */
export const CHAT_STATE_TTL_SECONDS = 60;

export interface ChatLink {
  chatId: string;
  chatAvatar: string | null;
}

/** Linking a chat-platform account (docs/decisions/0027-chat-link.md); texts are the original platform's. */
@Injectable()
export class ChatLinkService {
  private readonly logger = new Logger(ChatLinkService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly states: ChatStateRepository,
    private readonly platform: ChatPlatformClient,
    private readonly blocklist: BlocklistRepository,
  ) {}

  /** A new 20-character state replaces any earlier one of the user. */
  async oauthUrl(uid: string): Promise<string> {
    const state = randomBytes(10).toString('hex');
    await this.states.save(uid, state, CHAT_STATE_TTL_SECONDS);
    return this.platform.authorizeUrl(state);
  }

  async link(
    uid: string,
    tokenType: string,
    accessToken: string,
    state: string,
  ): Promise<{ relinked: boolean } & ChatLink> {
    const expected = await this.states.take(uid);
    if (expected === null || expected !== state) throw new AppError(403, 'Invalid user token');
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    if (user.banned) throw new AppError(403, 'Banned accounts cannot link with Discord');
    const account = await this.platform.currentAccount(tokenType, accessToken);
    if (!account) throw new AppError(500, 'Could not get Discord account info');

    const owner = await this.users.chatAccountOwner(account.id);
    const taken = new AppError(409, 'This Discord account is linked to a different account');
    if (owner !== undefined && owner !== uid) throw taken;
    // Domain facts §5.12: a chat account of a deleted banned account; refreshing one's own link's avatar is allowed.
    if (user.chatId !== account.id && (await this.blocklist.contains({ chatId: account.id })))
      throw new AppError(409, 'The Discord account is blocked');
    try {
      await this.users.setChatAccount(uid, account.id, account.avatar);
    } catch (e) {
      if (uniqueViolation(e) === CHAT_ID_INDEX) throw taken;
      throw e;
    }
    const relinked = user.chatId === account.id;
    this.logger.log({ uid, chatId: account.id, relinked }, relinked ? 'chat avatar updated' : 'chat linked');
    return { relinked, chatId: account.id, chatAvatar: account.avatar };
  }

  async unlink(uid: string): Promise<void> {
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    if (user.banned) throw new AppError(403, 'Banned accounts cannot unlink Discord');
    if (user.chatId === null) throw new AppError(404, 'User does not have a linked Discord account');
    await this.users.setChatAccount(uid, null, null);
    this.logger.log({ uid, chatId: user.chatId }, 'chat unlinked');
  }
}
