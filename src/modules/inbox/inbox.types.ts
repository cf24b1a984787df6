import type { Int } from '../../common/int';

export type MailReward = { type: 'badge'; item: { id: Int } } | { type: 'xp'; item: Int };

export interface NewMail {
  subject: string;
  body: string;
  rewards?: MailReward[];
}

/** A mail as the API returns it (`GET /users/inbox`). */
export interface Mail {
  id: string;
  subject: string;
  body: string;
  rewards: MailReward[];
  timestamp: Int;
  read: boolean;
}
