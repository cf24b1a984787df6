// JSON schemas of the `data` each route answers, from the TypeScript return types of the controller handlers
// (`Promise<Envelope<T>>` → T), for the 200 responses of the API document. Used by scripts/openapi-metadata.mjs.
import ts from 'typescript';

const HTTP_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);
const MAX_DEPTH = 8;
/** The alias (src/common/int.ts) that marks a number as an integer; TypeScript itself cannot tell them apart. */
const INTEGER_ALIAS = 'Int';

const isIntegerAlias = (node) =>
  node !== undefined && ts.isTypeReferenceNode(node) && node.typeName.getText() === INTEGER_ALIAS;

/**
 * `schema` with `number` turned into `integer` where the declared type node says `Int` (also inside `Int | null`,
 * `Int[]`, `(Int | null)[]` and `Record<string, Int>`).
 */
function integerize(schema, node) {
  if (!node || !schema) return schema;
  if (ts.isParenthesizedTypeNode(node)) return integerize(schema, node.type);
  if (isIntegerAlias(node) || (ts.isUnionTypeNode(node) && node.types.some(isIntegerAlias))) {
    return schema.type === 'number' ? { ...schema, type: 'integer' } : schema;
  }
  if (ts.isArrayTypeNode(node) && schema.type === 'array' && schema.items) {
    return { ...schema, items: integerize(schema.items, node.elementType) };
  }
  if (ts.isTypeReferenceNode(node) && node.typeName.getText() === 'Record' && schema.additionalProperties) {
    return {
      ...schema,
      additionalProperties: integerize(schema.additionalProperties, node.typeArguments?.[1]),
    };
  }
  return schema;
}

/**
 * The type node a property was declared with: its annotation, or for a property of an object literal without one
 * (`addedAt: user.addedAt`, `length: user.streakLength ?? 0`, `{ maxMail }`) the annotation of what it copies.
 */
function declaredTypeNode(checker, symbol, depth = 0) {
  for (const d of symbol?.declarations ?? []) {
    if (d.type) return d.type;
    if (depth >= 4) continue;
    let source;
    if (ts.isShorthandPropertyAssignment(d)) source = checker.getShorthandAssignmentValueSymbol(d);
    else if (ts.isPropertyAssignment(d) || ts.isVariableDeclaration(d) || ts.isBindingElement(d)) {
      let init = ts.isBindingElement(d) ? d.name : d.initializer;
      while (init && (ts.isParenthesizedExpression(init) || ts.isNonNullExpression(init)))
        init = init.expression;
      while (
        init &&
        ts.isBinaryExpression(init) &&
        init.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken
      )
        init = init.left;
      if (init && ts.isPropertyAccessExpression(init)) source = checker.getSymbolAtLocation(init.name);
      else if (init && ts.isIdentifier(init)) source = checker.getSymbolAtLocation(init);
      if (ts.isBindingElement(d) && d.parent && ts.isObjectBindingPattern(d.parent)) {
        const from = checker.getTypeAtLocation(d.parent);
        const name = (d.propertyName ?? d.name).getText();
        source = from.getProperty(name) ?? source;
      }
    }
    const found = source && source !== symbol ? declaredTypeNode(checker, source, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** `number`, or `integer` when every value is a whole number (literal types: `-1 | 0 | 1`). */
const numberType = (values) => (values.every((v) => Number.isInteger(v)) ? 'integer' : 'number');

function decoratorNames(node) {
  return (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) => {
    const e = d.expression;
    return ts.isCallExpression(e) ? e.expression.getText() : e.getText();
  });
}

/**
 * One object schema for a union of object shapes (an entry, or the same entry with its friends ranks): every property
 * of any variant, required only where every variant requires it. Undefined when the variants are not all plain
 * objects or give one property two different schemas; the caller then keeps the variants apart.
 */
function mergeObjects(variants) {
  if (!variants.every((v) => v.type === 'object' && v.properties && !v.additionalProperties && !v.nullable)) {
    return undefined;
  }
  const properties = {};
  for (const variant of variants) {
    for (const [name, property] of Object.entries(variant.properties)) {
      if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(property))
        return undefined;
      properties[name] = property;
    }
  }
  const required = Object.keys(properties).filter((name) =>
    variants.every((v) => (v.required ?? []).includes(name)),
  );
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

/** A JSON schema (OpenAPI 3.0 dialect) of `type`; `{}` (any value) where the type says nothing useful. */
function schemaOf(checker, type, node, stack = [], depth = 0) {
  if (depth > MAX_DEPTH || stack.includes(type)) return {};
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return {};
  if (f & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [type.value] };
  if (f & ts.TypeFlags.NumberLiteral) return { type: numberType([type.value]), enum: [type.value] };
  if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean' };
  if (f & ts.TypeFlags.StringLike) return { type: 'string' };
  if (f & ts.TypeFlags.NumberLike) return { type: 'number' };
  if (f & ts.TypeFlags.BigIntLike) return { type: 'integer' };
  if (f & ts.TypeFlags.BooleanLike) return { type: 'boolean' };
  if (f & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void))
    return { type: 'object', nullable: true };
  const inner = [...stack, type];
  if (type.isUnion()) {
    const members = type.types.filter(
      (t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined | ts.TypeFlags.Void)),
    );
    const nullable = members.length < type.types.length;
    let schema;
    if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.StringLiteral)) {
      schema = { type: 'string', enum: members.map((t) => t.value) };
    } else if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.NumberLiteral)) {
      const values = members.map((t) => t.value);
      schema = { type: numberType(values), enum: values };
    } else if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) {
      schema = { type: 'boolean' };
    } else if (members.length === 1) {
      schema = schemaOf(checker, members[0], node, inner, depth + 1);
    } else {
      // `boolean` reaches here as its two literals, `true | false`: one variant each would repeat itself.
      const seen = new Set();
      const variants = members
        .map((t) => schemaOf(checker, t, node, inner, depth + 1))
        .filter((v) => {
          const key = JSON.stringify(v);
          return !seen.has(key) && seen.add(key);
        });
      const merged = mergeObjects(variants);
      if (merged) {
        schema = merged;
      } else {
        // `nullable` needs a `type` beside it in OpenAPI 3.0: a union that may be null stays untyped (any value).
        if (nullable || variants.some((v) => !v.type)) return { description: 'One of several shapes.' };
        return { oneOf: variants };
      }
    }
    return nullable && schema.type ? { ...schema, nullable: true } : schema;
  }
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const [item] = checker.getTypeArguments(type);
    return {
      type: 'array',
      items: item && checker.isArrayType(type) ? schemaOf(checker, item, node, inner, depth + 1) : {},
    };
  }
  const symbolName = type.getSymbol()?.getName();
  if (symbolName === 'Date') return { type: 'string', format: 'date-time' };
  // An intersection of object shapes (`Entry & { globalRank: Int }`) is one object; a branded primitive (`Int`) is not.
  const objectLike =
    f & ts.TypeFlags.Object ||
    (type.isIntersection() && type.types.every((t) => t.flags & ts.TypeFlags.Object));
  if (objectLike) {
    if (type.getCallSignatures().length > 0) return {};
    const properties = {};
    const required = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const propType = checker.getTypeOfSymbolAtLocation(prop, node);
      if (propType.getCallSignatures().length > 0) continue;
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const declared = declaredTypeNode(checker, prop);
      properties[prop.getName()] = integerize(
        schemaOf(
          checker,
          checker.getNonNullableType(propType) === propType ||
            !optional ||
            propType.flags & ts.TypeFlags.Unknown
            ? propType
            : checker.getNonNullableType(propType),
          node,
          inner,
          depth + 1,
        ),
        declared,
      );
      if (!optional) required.push(prop.getName());
    }
    const schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const index = checker.getIndexInfosOfType(type)[0];
    if (index)
      schema.additionalProperties = integerize(
        schemaOf(checker, index.type, node, inner, depth + 1),
        index.declaration?.type,
      );
    return schema;
  }
  return {};
}

/** `{ "<ControllerClass>_<method>": schema of data }` for every route handler of the program's controllers. */
export function payloadSchemas(program, isController) {
  const checker = program.getTypeChecker();
  const out = {};
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || !isController(sf.fileName)) continue;
    ts.forEachChild(sf, function visit(node) {
      if (ts.isClassDeclaration(node) && node.name) {
        for (const member of node.members) {
          if (!ts.isMethodDeclaration(member) || !member.name) continue;
          if (!decoratorNames(member).some((n) => HTTP_DECORATORS.has(n))) continue;
          const signature = checker.getSignatureFromDeclaration(member);
          if (!signature) continue;
          const answered = checker.getAwaitedType(checker.getReturnTypeOfSignature(signature));
          const data = answered && checker.getPropertyOfType(answered, 'data');
          if (!data) continue;
          const type = checker.getTypeOfSymbolAtLocation(data, member);
          out[`${node.name.text}_${member.name.getText()}`] = schemaOf(checker, type, member);
        }
      }
      ts.forEachChild(node, visit);
    });
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
