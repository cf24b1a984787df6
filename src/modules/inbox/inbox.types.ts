export type MailReward = { type: 'badge'; item: { id: number } } | { type: 'xp'; item: number };

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
  timestamp: number;
  read: boolean;
}
