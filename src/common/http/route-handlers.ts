import { RequestMethod, type INestApplication, type Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

// Nest's metadata keys of a controller's or handler's path and a handler's HTTP method (`@nestjs/common` keeps its
// constants in an internal entry point).
const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';

/** One route of a controller handler: a handler with several paths (aliases) gives one entry per path. */
export interface HandlerRoute {
  controller: Type;
  /** The handler's method name on the controller. */
  name: string;
  handler: (...args: unknown[]) => unknown;
  method: keyof typeof RequestMethod;
  /** Full path with `:param` placeholders, e.g. `/users/:uidOrName/profile`. */
  path: string;
}

const asList = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? (value as string[]) : [value as string];

function joinPath(prefix: string, path: string): string {
  const joined = `/${[prefix, path].filter((p) => p !== '' && p !== '/').join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/**
 * Every route the app's controllers declare, read from Nest's metadata: the OpenAPI completion, the fuzz, the
 * authorization matrix and the compat suite all walk the app's own route table through this one reader.
 */
export function handlerRoutes(app: INestApplication): HandlerRoute[] {
  const routes: HandlerRoute[] = [];
  for (const module of app.get(ModulesContainer, { strict: false }).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = Object.getOwnPropertyDescriptor(proto, name)?.value as unknown;
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
        if (method === undefined || paths === undefined) continue;
        for (const prefix of asList(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const path of asList(paths)) {
            routes.push({
              controller,
              name,
              handler: handler as HandlerRoute['handler'],
              method: RequestMethod[method] as keyof typeof RequestMethod,
              path: joinPath(prefix, path),
            });
          }
        }
      }
    }
  }
  return routes;
}
