import { Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { formatApeKey } from '../../src/common/auth/ape-key-authenticator';
import { policyOf, type RoutePolicy } from '../../src/common/auth/policy';
import { handlerRoutes } from '../../src/common/http/route-handlers';
import type { TestApp } from './test-app';

let ipCounter = 0;

/** A fresh client address, so refusals in one test never add up to a bad-authentication ban in another. */
export function freshIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

/** A well-formed ApeKey header (the key need not exist: Bearer-only routes refuse the scheme itself). */
export const someApeKey = (): string => `ApeKey ${formatApeKey('abcdef0123456789abcdef01', 'S'.repeat(32))}`;

/**
 * Asserts that a Bearer-only route refuses callers without a usable identity: no header, a garbage token, an ApeKey,
 * and a valid token of a user who does not exist in the service.
 */
export async function expectBearerOnly(
  t: TestApp,
  method: string,
  url: string,
  body?: unknown,
): Promise<void> {
  const cases: [string | undefined, number, string][] = [
    [undefined, 401, 'Unauthorized'],
    ['Bearer not.a.jwt', 401, 'Unauthorized'],
    [someApeKey(), 401, 'This endpoint does not accept ApeKeys'],
    [await t.bearer('uidThatWasNeverSignedUp'), 404, 'User not found'],
  ];
  for (const [auth, status, message] of cases) {
    const res = await t.request(method, url, { auth, body, ip: freshIp() });
    expect({ auth, status: res.status, body: res.body }).toEqual({
      auth,
      status,
      body: { message, data: null },
    });
  }
}

/** A route of the running app, read from Nest's controller metadata, with the policy the guard will apply. */
export interface AppRoute {
  method: string;
  /** Fastify form, e.g. `/presets/:presetId`. */
  path: string;
  /** `Controller.handler`, for messages. */
  handler: string;
  policy: RoutePolicy;
}

/**
 * Every route the app serves through a controller, with its policy (the same reader as the guard), and checked
 * against Fastify's router so a route that is declared but not mounted (or mounted twice differently) shows up.
 */
export function listRoutes(app: NestFastifyApplication): AppRoute[] {
  const reflector = app.get(Reflector);
  const fastify = app.getHttpAdapter().getInstance();
  const routes = handlerRoutes(app).map((r) => {
    const route: AppRoute = {
      method: r.method,
      path: r.path,
      handler: `${r.controller.name}.${r.name}`,
      policy: policyOf(reflector, r.handler, r.controller),
    };
    if (!fastify.hasRoute({ method: route.method as 'GET', url: route.path })) {
      throw new Error(`${route.method} ${route.path} (${route.handler}) is not mounted in Fastify`);
    }
    return route;
  });
  return routes.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
