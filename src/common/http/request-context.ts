import type { FastifyRequest } from 'fastify';

export type AuthType = 'Bearer' | 'ApeKey' | 'None';

/** Who is calling, as decided by the auth guard; passed to services explicitly. */
export interface AuthContext {
  type: AuthType;
  uid: string;
  email: string;
  /** Set for ApeKey calls: the id of the key used. */
  apeKeyId?: string;
}

export const ANONYMOUS: AuthContext = Object.freeze({ type: 'None', uid: '', email: '' }) as AuthContext;

/** The signed-in caller's account facts the guard loaded once (existence, permissions, premium). */
export interface CallerAccount {
  uid: string;
  name: string;
  banned: boolean;
  premiumExpiresAt: number | null;
  permissions: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
    account?: CallerAccount;
    /** The request body exactly as received (JSON requests only). */
    rawBody?: string;
  }
}

export type AppRequest = FastifyRequest;
