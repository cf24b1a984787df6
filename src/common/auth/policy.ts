import type { ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { POLICY, type Permission, type RequiredConfiguration } from './policy.decorators';

/** Everything the guard needs to know about a route, read once per handler. */
export interface RoutePolicy {
  public: boolean;
  devPublic: boolean;
  rawAuth: boolean;
  acceptsApeKey: boolean;
  freshToken: boolean;
  noTokenCache: boolean;
  allowUnregistered: boolean;
  permission: Permission | undefined;
  premium: boolean;
  configuration: RequiredConfiguration[];
  skipMaintenance: boolean;
}

const cache = new WeakMap<object, RoutePolicy>();

export function routePolicy(reflector: Reflector, context: ExecutionContext): RoutePolicy {
  return policyOf(reflector, context.getHandler(), context.getClass());
}

/** The policy of a handler of a controller class (also read by the authorization-matrix test). */
export function policyOf(reflector: Reflector, handler: object, controller: object): RoutePolicy {
  const known = cache.get(handler);
  if (known) return known;
  const targets = [handler, controller] as Parameters<Reflector['getAllAndOverride']>[1];
  const flag = (key: string) => reflector.getAllAndOverride<boolean | undefined>(key, targets) === true;
  const policy: RoutePolicy = {
    public: flag(POLICY.public),
    devPublic: flag(POLICY.devPublic),
    rawAuth: flag(POLICY.rawAuth),
    acceptsApeKey: flag(POLICY.acceptsApeKey),
    freshToken: flag(POLICY.freshToken),
    noTokenCache: flag(POLICY.noTokenCache),
    allowUnregistered: flag(POLICY.allowUnregistered),
    permission: reflector.getAllAndOverride<Permission | undefined>(POLICY.permission, targets),
    premium: flag(POLICY.premium),
    configuration: reflector.getAllAndMerge<RequiredConfiguration[]>(POLICY.configuration, targets) ?? [],
    skipMaintenance: flag(POLICY.skipMaintenance),
  };
  cache.set(handler, policy);
  return policy;
}
