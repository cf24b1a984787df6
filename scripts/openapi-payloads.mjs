// JSON schemas of the `data` each route answers, from the TypeScript return types of the controller handlers
// (`Promise<Envelope<T>>` → T), for the 200 responses of the API document. Used by scripts/openapi-metadata.mjs.
import ts from 'typescript';

const HTTP_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);
const MAX_DEPTH = 8;

function decoratorNames(node) {
  return (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) => {
    const e = d.expression;
    return ts.isCallExpression(e) ? e.expression.getText() : e.getText();
  });
}

/** A JSON schema (OpenAPI 3.0 dialect) of `type`; `{}` (any value) where the type says nothing useful. */
function schemaOf(checker, type, node, stack = [], depth = 0) {
  if (depth > MAX_DEPTH || stack.includes(type)) return {};
  const f = type.flags;
  if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return {};
  if (f & ts.TypeFlags.StringLiteral) return { type: 'string', enum: [type.value] };
  if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', enum: [type.value] };
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
      schema = { type: 'number', enum: members.map((t) => t.value) };
    } else if (members.length > 0 && members.every((t) => t.flags & ts.TypeFlags.BooleanLiteral)) {
      schema = { type: 'boolean' };
    } else if (members.length === 1) {
      schema = schemaOf(checker, members[0], node, inner, depth + 1);
    } else {
      const variants = members.map((t) => schemaOf(checker, t, node, inner, depth + 1));
      // `nullable` needs a `type` beside it in OpenAPI 3.0: a union that may be null stays untyped (any value).
      if (nullable || variants.some((v) => !v.type)) return { description: 'One of several shapes.' };
      return { oneOf: variants };
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
  if (f & ts.TypeFlags.Object) {
    if (type.getCallSignatures().length > 0) return {};
    const properties = {};
    const required = [];
    for (const prop of checker.getPropertiesOfType(type)) {
      const propType = checker.getTypeOfSymbolAtLocation(prop, node);
      if (propType.getCallSignatures().length > 0) continue;
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      properties[prop.getName()] = schemaOf(
        checker,
        checker.getNonNullableType(propType) === propType || !optional
          ? propType
          : checker.getNonNullableType(propType),
        node,
        inner,
        depth + 1,
      );
      if (!optional) required.push(prop.getName());
    }
    const schema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const index = checker.getIndexInfosOfType(type)[0];
    if (index) schema.additionalProperties = schemaOf(checker, index.type, node, inner, depth + 1);
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
