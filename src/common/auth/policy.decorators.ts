import { SetMetadata, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ANONYMOUS, type AuthContext, type CallerAccount } from '../http/request-context';
import type { RateLimitId } from '../rate-limit/rate-limit-classes';

/**
 * Route policy is metadata read by the one global guard. Every route is authenticated (Bearer) unless it says
 * otherwise here: default-deny.
 */
export const POLICY = {
  public: 'policy:public',
  devPublic: 'policy:devPublic',
  acceptsApeKey: 'policy:acceptsApeKey',
  freshToken: 'policy:freshToken',
  noTokenCache: 'policy:noTokenCache',
  allowUnregistered: 'policy:allowUnregistered',
  permission: 'policy:permission',
  premium: 'policy:premium',
  configuration: 'policy:configuration',
  rateLimit: 'policy:rateLimit',
  skipMaintenance: 'policy:skipMaintenance',
  rawAuth: 'policy:rawAuth',
} as const;

/**
 * `admin` and `quoteMod` are granted (user_permissions rows); `canReport` and `canManageApeKeys` are the original's
 * per-user flags, on unless support revoked them (users columns).
 */
export type Permission = 'admin' | 'quoteMod' | 'canReport' | 'canManageApeKeys';
export interface RequiredConfiguration {
  path: string;
  message: string;
}
export type RateLimitPolicy = { normal: RateLimitId; apeKey?: RateLimitId };

/** No account needed. An Authorization header, if sent, is still verified (so `friendsOnly` can see the caller). */
export const Public = () => SetMetadata(POLICY.public, true);
/** Public when `MODE=dev` (and the admin permission auto-passes there); Bearer otherwise. */
export const DevPublic = () => SetMetadata(POLICY.devPublic, true);
export const AcceptsApeKey = () => SetMetadata(POLICY.acceptsApeKey, true);
/** Token issued within the last 60 s; revocation checked, cache bypassed. Never accepts ApeKeys. */
export const RequireFreshToken = () => SetMetadata(POLICY.freshToken, true);
/** Verify the token against the provider each time, with the revocation check. */
export const NoTokenCache = () => SetMetadata(POLICY.noTokenCache, true);
/** A valid token whose user does not exist in the service yet (sign-up). */
export const AllowUnregistered = () => SetMetadata(POLICY.allowUnregistered, true);
export const RequirePermission = (permission: Permission) => SetMetadata(POLICY.permission, permission);
export const RequirePremium = () => SetMetadata(POLICY.premium, true);
/** The boolean at `path` of the server configuration must be true, else 503 with `message`. */
export const RequireConfiguration = (path: string, message: string) =>
  SetMetadata(POLICY.configuration, [{ path, message }] satisfies RequiredConfiguration[]);
/** Several required flags, checked in order. */
export const RequireConfigurations = (...items: RequiredConfiguration[]) =>
  SetMetadata(POLICY.configuration, items);
/** The rate-limit class of the route; ApeKey calls use `apeKey` (or the default ApeKey class). */
export const RateLimit = (normal: RateLimitId, apeKey?: RateLimitId) =>
  SetMetadata(POLICY.rateLimit, { normal, apeKey } satisfies RateLimitPolicy);
/** Still served in maintenance mode (the configuration routes, so an operator can turn it off). */
export const SkipMaintenance = () => SetMetadata(POLICY.skipMaintenance, true);
/**
 * The route authenticates itself (e.g. a signed webhook): the guard treats it as public and ignores the
 * Authorization header.
 */
export const SelfAuthenticated = () =>
  applyDecorators(SetMetadata(POLICY.public, true), SetMetadata(POLICY.rawAuth, true));

/** The caller's auth context (anonymous on public routes without a header). */
export const Auth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AuthContext =>
    ctx.switchToHttp().getRequest<FastifyRequest>().auth ?? ANONYMOUS,
);

/** The signed-in caller's account facts loaded by the guard; undefined for anonymous callers. */
export const Account = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): CallerAccount | undefined =>
    ctx.switchToHttp().getRequest<FastifyRequest>().account,
);
