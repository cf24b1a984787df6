import { RequestMethod, type INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';

// Nest's metadata keys and argument kinds (`@nestjs/common` keeps their constants in its internal entry point).
const PATH_METADATA = 'path';
const METHOD_METADATA = 'method';
const ROUTE_ARGS_METADATA = '__routeArguments__';
const RouteParamtypes = { BODY: 3, QUERY: 4 } as const;

export interface RouteInfo {
  method: string;
  /** Nest's path with `:param` placeholders. */
  path: string;
  params: string[];
  /** Property names of the body and query DTO classes (empty when the argument is untyped or absent). */
  bodyKeys: string[];
  queryKeys: string[];
  hasBody: boolean;
}

const asArray = (value: unknown): string[] =>
  value === undefined ? [''] : Array.isArray(value) ? (value as string[]) : [value as string];

function dtoKeys(type: unknown): string[] {
  if (typeof type !== 'function' || [Object, String, Number, Boolean, Array].includes(type as never))
    return [];
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((m) => m.propertyName),
    ),
  ];
}

function joinPath(prefix: string, path: string): string {
  const joined = `/${[prefix, path].filter((p) => p !== '' && p !== '/').join('/')}`.replace(/\/+/g, '/');
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

/** Every route the running app serves, read from Nest's controller metadata (not a hand-written list). */
export function routeTable(app: INestApplication): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const module of app.get(ModulesContainer, { strict: false }).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const paths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (method === undefined || paths === undefined) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
          string,
          { index: number }
        >;
        const types = (Reflect.getMetadata('design:paramtypes', proto, name) ?? []) as unknown[];
        const argType = (kind: number) =>
          Object.entries(args)
            .filter(([key]) => key.split(':')[0] === String(kind))
            .map(([, arg]) => types[arg.index]);
        for (const prefix of asArray(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const path of asArray(paths)) {
            const full = joinPath(prefix, path);
            routes.push({
              method: RequestMethod[method],
              path: full,
              params: [...full.matchAll(/:(\w+)/g)].map((m) => m[1]!),
              bodyKeys: argType(RouteParamtypes.BODY).flatMap(dtoKeys),
              queryKeys: argType(RouteParamtypes.QUERY).flatMap(dtoKeys),
              hasBody: argType(RouteParamtypes.BODY).length > 0,
            });
          }
        }
      }
    }
  }
  return routes;
}
