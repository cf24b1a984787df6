/**
 * A number that is always an integer: a count, a rank, a limit, a timestamp in milliseconds. Only a name for
 * `number` (TypeScript has no integer type); the API document's payload schemas (scripts/openapi-payloads.mjs) give
 * properties declared with it `type: integer`.
 */
export type Int = number;
