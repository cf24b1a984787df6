import {
  getMetadataStorage,
  validateSync,
  ValidationTypes,
  type ValidationArguments,
  type ValidationError,
} from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** The options every DTO is validated with (strict: unknown keys and unknown objects are errors). */
export const STRICT_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
} as const;

type Condition = (object: object, value: unknown) => boolean;

interface Constraint {
  validate(value: unknown, args: ValidationArguments): unknown;
}

interface Check {
  readonly metadata: ValidationMetadata;
  readonly validateIf: Condition | undefined;
  readonly constraints: readonly Constraint[];
}

interface PropertyPlan {
  readonly name: string;
  readonly conditions: readonly Condition[];
  /** `@IsDefined()` first, then the other constraints, in class-validator's order. */
  readonly checks: readonly Check[];
  /** Schema names of the property's `@ValidateNested()` metadata (class-validator passes the declaring class's name). */
  readonly nested: readonly string[];
}

interface ClassPlan {
  readonly targetName: string;
  readonly declared: ReadonlySet<string>;
  readonly properties: readonly PropertyPlan[];
}

/** `null`: the class holds metadata this fast path does not mirror (async, promise validation); class-validator runs. */
const plans = new Map<object, Map<string, ClassPlan | null>>();

function compile(cls: new () => object, schema: string): ClassPlan | null {
  const storage = getMetadataStorage();
  // The same metadata class-validator selects for these options (no groups, `always` off).
  const metadatas = storage.getTargetValidationMetadatas(cls, schema, false, false, undefined);
  if (metadatas.length === 0) return null; // forbidUnknownValues: an error
  const grouped = storage.groupByPropertyName(metadatas);
  const properties: PropertyPlan[] = [];
  for (const [name, list] of Object.entries(grouped)) {
    const conditions: Condition[] = [];
    const defined: Check[] = [];
    const custom: Check[] = [];
    const nested: string[] = [];
    for (const m of list) {
      switch (m.type) {
        case ValidationTypes.WHITELIST:
          break;
        case ValidationTypes.CONDITIONAL_VALIDATION:
          conditions.push(m.constraints[0] as Condition);
          break;
        case ValidationTypes.NESTED_VALIDATION:
          nested.push(typeof m.target === 'string' ? m.target : m.target.name);
          break;
        case ValidationTypes.IS_DEFINED:
        case ValidationTypes.CUSTOM_VALIDATION: {
          const constraints = storage.getTargetValidatorConstraints(m.constraintCls);
          if (constraints.some((c) => c.async)) return null;
          const check = {
            metadata: m,
            validateIf: (m as { validateIf?: Condition }).validateIf,
            constraints: constraints.map((c) => c.instance as Constraint),
          };
          (m.type === ValidationTypes.IS_DEFINED ? defined : custom).push(check);
          break;
        }
        default:
          return null;
      }
    }
    properties.push({ name, conditions, checks: [...defined, ...custom], nested });
  }
  return { targetName: cls.name, declared: new Set(Object.keys(grouped)), properties };
}

function planOf(cls: new () => object, schema: string): ClassPlan | null {
  let bySchema = plans.get(cls);
  if (!bySchema) {
    bySchema = new Map();
    plans.set(cls, bySchema);
  }
  let plan = bySchema.get(schema);
  if (plan === undefined) {
    plan = compile(cls, schema);
    bySchema.set(schema, plan);
  }
  return plan;
}

function isPromiseLike(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * `args` is one object per validated object, filled in for each check (class-validator makes one per constraint call;
 * the constraints only read it during the call): a result body has about a hundred checks.
 */
function passes(check: Check, object: object, value: unknown, args: ValidationArguments): boolean {
  if (check.validateIf && !check.validateIf(object, value)) return true;
  const m = check.metadata;
  args.property = m.propertyName;
  args.value = value;
  args.constraints = m.constraints;
  const many = m.each && (Array.isArray(value) || value instanceof Set || value instanceof Map);
  for (const constraint of check.constraints) {
    if (!many) {
      const valid = constraint.validate(value, args);
      if (!valid || isPromiseLike(valid)) return false;
      continue;
    }
    const items: unknown[] =
      value instanceof Map
        ? [...value.values()]
        : Array.isArray(value)
          ? value
          : [...(value as Set<unknown>)];
    for (const item of items) {
      const valid = constraint.validate(item, args);
      if (!valid || isPromiseLike(valid)) return false;
    }
  }
  return true;
}

function nestedPasses(value: unknown, schema: string): boolean {
  if (Array.isArray(value) || value instanceof Set || value instanceof Map) {
    const items: unknown[] =
      value instanceof Set ? [...value] : Array.isArray(value) ? value : [...value.values()];
    // class-validator validates each item with the same nested metadata (and only that).
    for (const item of items) if (item !== undefined && !nestedPasses(item, schema)) return false;
    return true;
  }
  if (!(value instanceof Object)) return false;
  return objectPasses(value, schema);
}

function objectPasses(object: object, schema: string): boolean {
  const plan = planOf(object.constructor as new () => object, schema);
  if (!plan) return false;
  // forbidNonWhitelisted: every own key must carry metadata.
  for (const key of Object.keys(object)) if (!plan.declared.has(key)) return false;
  const args: ValidationArguments = {
    targetName: plan.targetName,
    property: '',
    object,
    value: undefined,
    constraints: [],
  };
  for (const property of plan.properties) {
    const value = (object as Record<string, unknown>)[property.name];
    let validate = true;
    for (const condition of property.conditions) if (!condition(object, value)) validate = false;
    if (!validate) continue;
    for (const check of property.checks) if (!passes(check, object, value, args)) return false;
    if (value !== undefined)
      for (const schemaName of property.nested) if (!nestedPasses(value, schemaName)) return false;
  }
  return true;
}

/** The fast path alone: `true` only when class-validator would find nothing (exported for its tests). */
export function passesStrict(instance: object): boolean {
  return objectPasses(instance, '');
}

/**
 * `validateSync` with the strict options every DTO uses, answered without class-validator when the value is valid.
 * class-validator's executor rebuilds the metadata selection, an error object per property and an argument object per
 * constraint on every call, which made it the largest cost of a `POST /results` body (30 µs). This walks the same
 * metadata, selected once per class, in the same order, calling the same constraint instances, and only says "valid";
 * anything it does not mirror (async constraints, promise validation, a class without metadata) or any failure goes to
 * class-validator itself, so every error and message comes from the same code as before.
 */
export function validateStrict(instance: object): ValidationError[] {
  if (passesStrict(instance)) return [];
  return validateSync(instance, STRICT_OPTIONS);
}
