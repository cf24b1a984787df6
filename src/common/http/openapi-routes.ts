import type { INestApplication } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { policyOf, type RoutePolicy } from '../auth/policy';
import { POLICY } from '../auth/policy.decorators';
import { handlerRoutes } from './route-handlers';

/** What the document post-processing needs to know about one handler, read from its decorators. */
export interface RouteFacts {
  /** Controller class name (without `Controller`) and method name, for a fallback summary. */
  controller: string;
  handler: string;
  policy: RoutePolicy;
  rateLimited: boolean;
  /** The success `message` of the handler, when it is a literal (for the example of the 200). */
  message: string | undefined;
}

/**
 * The first string literal passed to `ok(` in a handler's source, following one `this.x(` delegation (alias routes
 * call their twin). Read once when the document is built; a handler without a literal simply gets no example text.
 */
function successMessage(proto: Record<string, unknown>, name: string, depth = 0): string | undefined {
  const handler = proto[name];
  if (typeof handler !== 'function') return undefined;
  const source = Function.prototype.toString.call(handler);
  // Compiled to CommonJS the call reads `(0, envelope_1.ok)(...)`, hence the optional `)`.
  const literal = /\bok\)?\(\s*(?:[\w.]+\s*\?\s*)?(['"])((?:\\.|(?!\1).)*)\1/.exec(source);
  if (literal) return literal[2]!.replace(/\\(.)/g, '$1');
  const delegate = /return\s+(?:await\s+)?this\.(\w+)\(/.exec(source);
  if (delegate && depth === 0) return successMessage(proto, delegate[1]!, depth + 1);
  return undefined;
}

/**
 * Facts of every route handler of the app, keyed like @nestjs/swagger's default operation ids
 * (`<ControllerClass>_<method>`; a handler with several paths gets `[i]` appended there, stripped by the caller).
 */
export function collectRouteFacts(app: INestApplication): Map<string, RouteFacts> {
  const reflector = app.get(Reflector);
  const facts = new Map<string, RouteFacts>();
  // An alias path repeats its handler: one entry per handler.
  for (const { controller, name, handler } of handlerRoutes(app)) {
    facts.set(`${controller.name}_${name}`, {
      controller: controller.name.replace(/Controller$/, ''),
      handler: name,
      policy: policyOf(reflector, handler, controller),
      rateLimited: reflector.getAllAndOverride(POLICY.rateLimit, [handler, controller]) !== undefined,
      message: successMessage(controller.prototype as Record<string, unknown>, name),
    });
  }
  return facts;
}
