import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppEnv } from '../../config/env';
import { redisKeys } from '../../infra/redis/keys';
import { AppError, MESSAGES } from '../app-error';
import { POLICY, type RateLimitPolicy } from '../auth/policy.decorators';
import { RATE_LIMIT_CLASSES, type RateLimitClass, type RateLimitId } from './rate-limit-classes';
import { RedisThrottlerStorage } from './redis-throttler.storage';

export const GLOBAL_THROTTLER = 'global';
export const ROUTE_THROTTLER = 'default';

/** Each handler's rate-limit policy, read once (metadata does not change after start). */
const policies = new WeakMap<object, RateLimitPolicy | null>();

/**
 * Resolves the rate-limit class of a request: the route's ApeKey class for ApeKey calls (or the default ApeKey
 * class), otherwise its normal class; null when the route has none.
 */
export function routeLimitId(reflector: Reflector, context: ExecutionContext): RateLimitId | null {
  const handler = context.getHandler();
  let policy = policies.get(handler);
  if (policy === undefined) {
    policy =
      reflector.getAllAndOverride<RateLimitPolicy | undefined>(POLICY.rateLimit, [
        handler,
        context.getClass(),
      ]) ?? null;
    policies.set(handler, policy);
  }
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

/** A throttler resolved for one request: its counter and window. */
interface Counted {
  name: string;
  key: string;
  ttl: number;
  limit: number;
}

/**
 * @nestjs/throttler's guard with our keys (uid when signed in, else IP; hash-tagged for Redis Cluster), classes
 * shared across routes by id, and the spec's 429 message. Invoked by the policy guard after authentication.
 *
 * `canActivate` is ours rather than the library's: the library resolves five metadata lookups per throttler per
 * request and awaits each counter in turn (two Redis round trips). Here the route's class comes from its policy
 * (cached per handler), and both counters go to the storage at once, so they share one round trip (the client
 * pipelines them). The answers are the library's: the global throttler is judged first (`Retry-After-global` and its
 * `-global` headers), then the route's own (unsuffixed headers), 429 from whichever is over its limit.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    reflector: Reflector,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const counted = await this.counters(context);
    // Issued together: the Redis client pipelines them into one write (autopipelining), one round trip.
    const records = await Promise.all(
      counted.map((c) => this.storage.increment(c.key, c.ttl, c.limit, c.ttl, c.name)),
    );
    this.judge(context, counted, records);
    return true;
  }

  /**
   * `canActivate` for an anonymous request with the bad-authentication ban check of its IP in the same round trip
   * (the policy guard's first check): false when the IP is banned (nothing counted), else as `canActivate`.
   */
  /** Whether `canActivateUnlessBanned` can be used (the counters live in Redis, with their memory fallback). */
  get usesRedis(): boolean {
    return this.storage instanceof RedisThrottlerStorage;
  }

  async canActivateUnlessBanned(
    context: ExecutionContext,
    ban: { key: string; threshold: number } | null,
  ): Promise<boolean> {
    const counted = await this.counters(context);
    if (!(this.storage instanceof RedisThrottlerStorage) || counted.length === 0) {
      throw new Error('rate limits not on the Redis storage');
    }
    const records = await this.storage.incrementUnlessBanned(ban, counted);
    if (records === 'banned') return false;
    this.judge(context, counted, records);
    return true;
  }

  /** The throttlers that apply to this request, resolved: the global one, then the route's class (if any). */
  private async counters(context: ExecutionContext): Promise<Counted[]> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const counted: Counted[] = [];
    for (const throttler of this.throttlers) {
      if (throttler.skipIf?.(context)) continue;
      const name = throttler.name as string;
      const tracker = await this.getTracker(request as unknown as Record<string, unknown>);
      counted.push({
        name,
        key: this.generateKey(context, tracker, name),
        ttl: resolve(throttler.ttl, context),
        limit: resolve(throttler.limit, context),
      });
    }
    return counted;
  }

  /** Headers and the 429 of @nestjs/throttler, judged in the throttlers' order; `records` may stop at a blocked one. */
  private judge(context: ExecutionContext, counted: Counted[], records: ThrottlerStorageRecord[]): void {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    records.forEach((record, i) => {
      const { name, limit } = counted[i] as Counted;
      const { totalHits, timeToExpire, isBlocked, timeToBlockExpire } = record;
      const suffix = name === ROUTE_THROTTLER ? '' : `-${name}`;
      if (isBlocked) {
        void reply.header(`Retry-After${suffix}`, timeToBlockExpire);
        throw new AppError(429, MESSAGES.rateLimited);
      }
      void reply.header(`X-RateLimit-Limit${suffix}`, limit);
      void reply.header(`X-RateLimit-Remaining${suffix}`, Math.max(0, limit - totalHits));
      void reply.header(`X-RateLimit-Reset${suffix}`, timeToExpire);
    });
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

function resolve(value: unknown, context: ExecutionContext): number {
  return typeof value === 'function'
    ? (value as (c: ExecutionContext) => number)(context)
    : (value as number);
}
