import type { INestApplication } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { handlerRoutes } from '../../../src/common/http/route-handlers';

// Nest's metadata key and argument kinds (`@nestjs/common` keeps their constants in its internal entry point).
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

/** Every route the running app serves, read from Nest's controller metadata (not a hand-written list). */
export function routeTable(app: INestApplication): RouteInfo[] {
  return handlerRoutes(app).map(({ controller, name, method, path }) => {
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
      string,
      { index: number }
    >;
    const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as unknown[];
    const argType = (kind: number) =>
      Object.entries(args)
        .filter(([key]) => key.split(':')[0] === String(kind))
        .map(([, arg]) => types[arg.index]);
    return {
      method,
      path,
      params: [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!),
      bodyKeys: argType(RouteParamtypes.BODY).flatMap(dtoKeys),
      queryKeys: argType(RouteParamtypes.QUERY).flatMap(dtoKeys),
      hasBody: argType(RouteParamtypes.BODY).length > 0,
    };
  });
}
