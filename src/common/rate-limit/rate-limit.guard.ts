import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { FastifyRequest } from 'fastify';
import type { AppEnv } from '../../config/env';
import { redisKeys } from '../../infra/redis/keys';
import { AppError, MESSAGES } from '../app-error';
import { POLICY, type RateLimitPolicy } from '../auth/policy.decorators';
import { RATE_LIMIT_CLASSES, type RateLimitClass, type RateLimitId } from './rate-limit-classes';

export const GLOBAL_THROTTLER = 'global';
export const ROUTE_THROTTLER = 'default';

/**
 * Resolves the rate-limit class of a request: the route's ApeKey class for ApeKey calls (or the default ApeKey
 * class), otherwise its normal class; null when the route has none.
 */
export function routeLimitId(reflector: Reflector, context: ExecutionContext): RateLimitId | null {
  const policy = reflector.getAllAndOverride<RateLimitPolicy | undefined>(POLICY.rateLimit, [
    context.getHandler(),
    context.getClass(),
  ]);
  if (!policy) return null;
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  if (request.auth?.type === 'ApeKey') return policy.apeKey ?? 'defaultApeKey';
  return policy.normal;
}

export function limitClass(env: AppEnv, id: RateLimitId): RateLimitClass {
  const base = RATE_LIMIT_CLASSES[id];
  const override = env.rateLimit.overrides[id] ?? {};
  const max = (override.max ?? base.max) * (env.mode === 'dev' ? 100 : 1);
  return { windowMs: override.windowMs ?? base.windowMs, max };
}

/** The throttlers: a global per-IP limit, and the route's own class keyed by caller. */
export function throttlerOptions(env: AppEnv, reflector: Reflector): ThrottlerModuleOptions {
  const routeClass = (context: ExecutionContext): RateLimitClass => {
    const id = routeLimitId(reflector, context);
    return id ? limitClass(env, id) : { windowMs: 1, max: Number.MAX_SAFE_INTEGER };
  };
  return {
    throttlers: [
      {
        name: GLOBAL_THROTTLER,
        ttl: 60_000,
        limit: env.rateLimit.globalPerMinute * (env.mode === 'dev' ? 100 : 1),
      },
      {
        name: ROUTE_THROTTLER,
        ttl: (context) => routeClass(context).windowMs,
        limit: (context) => routeClass(context).max,
        skipIf: (context) => routeLimitId(reflector, context) === null,
      },
    ],
  };
}

/**
 * @nestjs/throttler's guard with our keys (uid when signed in, else IP; hash-tagged for Redis Cluster), classes
 * shared across routes by id, and the spec's 429 message. Invoked by the policy guard after authentication.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const request = req as unknown as FastifyRequest;
    return request.auth && request.auth.uid !== '' ? `uid:${request.auth.uid}` : `ip:${request.ip}`;
  }

  protected override generateKey(context: ExecutionContext, tracker: string, name: string): string {
    if (name === GLOBAL_THROTTLER) {
      const ip = context.switchToHttp().getRequest<FastifyRequest>().ip;
      return redisKeys.rateLimit(`ip:${ip}`, 'global');
    }
    return redisKeys.rateLimit(tracker, routeLimitId(this.reflector, context) ?? 'none');
  }

  protected override throwThrottlingException(): Promise<void> {
    throw new AppError(429, MESSAGES.rateLimited);
  }
}
