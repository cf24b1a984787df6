import { join, resolve } from 'node:path';
import ts from 'typescript';

/** One `new AppError(status, message)` a route handler can reach. */
export interface ReachableError {
  /** The status, or every status its type allows (`400 | 422`); empty when the type says only `number`. */
  statuses: number[];
  /** The message when it is a constant (a literal, or a constant's literal type); null when built at run time. */
  message: string | null;
  /** file:line of the `new AppError`. */
  at: string;
}

const HTTP_DECORATORS = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete']);
const ROOT = resolve(__dirname, '../..');

function decoratorNames(node: ts.Node): string[] {
  return (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).map((d) => {
    const e = d.expression;
    return ts.isCallExpression(e) ? e.expression.getText() : e.getText();
  });
}

type FunctionLike = ts.FunctionLikeDeclaration & { body?: ts.Node };

/**
 * A static scan of the application's sources (tsconfig.build.json): for every route handler (`<Controller>_<method>`,
 * as the API document's operation ids), each `new AppError(...)` reachable from its body through the calls it makes,
 * resolved by the type checker: methods of injected services, plain functions, callbacks written inline, and an
 * abstract method's (or an interface member's) implementations in the sources. Calls through values the checker cannot
 * resolve (handlers kept in maps: result hooks, lifecycle handlers, anti-cheat rules) are not followed.
 */
export function reachableErrors(): Map<string, ReachableError[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  });
  if (!config) throw new Error('tsconfig.build.json could not be read');
  const program = ts.createProgram({ options: config.options, rootNames: config.fileNames });
  const checker = program.getTypeChecker();
  const ours = (file: ts.SourceFile) =>
    !file.isDeclarationFile &&
    file.fileName.startsWith(join(ROOT, 'src')) &&
    !file.fileName.includes('/generated/');
  const sources = program.getSourceFiles().filter(ours);

  const appError = sources
    .find((f) => f.fileName.endsWith('src/common/app-error.ts'))
    ?.statements.find(
      (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === 'AppError',
    );
  if (!appError) throw new Error('AppError not found');

  const classes = sources.flatMap((f) => f.statements.filter(ts.isClassDeclaration));
  const declarationOf = (node: ts.Node): ts.Declaration | undefined => {
    let symbol = checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
    return symbol?.declarations?.[0];
  };
  /** Whether `cls` is `base` or extends or implements it, directly or through other classes of the sources. */
  const derivesFrom = (
    cls: ts.ClassDeclaration,
    base: ts.Declaration,
    seen = new Set<ts.Node>(),
  ): boolean => {
    if (cls === base) return true;
    if (seen.has(cls)) return false;
    seen.add(cls);
    for (const clause of cls.heritageClauses ?? []) {
      for (const type of clause.types) {
        const declaration = declarationOf(type.expression);
        if (declaration === base) return true;
        if (declaration && ts.isClassDeclaration(declaration) && derivesFrom(declaration, base, seen))
          return true;
      }
    }
    return false;
  };
  const isAppError = (expression: ts.Expression) => {
    const declaration = declarationOf(expression);
    return (
      declaration !== undefined && ts.isClassDeclaration(declaration) && derivesFrom(declaration, appError)
    );
  };

  const literalNumbers = (type: ts.Type): number[] =>
    type.isUnion() ? type.types.flatMap(literalNumbers) : type.isNumberLiteral() ? [type.value] : [];
  const constantText = (node: ts.Expression | undefined): string | null => {
    if (!node) return null;
    if (ts.isStringLiteralLike(node)) return node.text;
    const type = checker.getTypeAtLocation(node);
    return type.isStringLiteral() ? type.value : null;
  };
  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${file.fileName.slice(ROOT.length + 1)}:${line + 1}`;
  };

  /** The bodies a call may run: its declaration's, or for a body-less member, its implementations' in the sources. */
  const targetsOf = (declaration: ts.Declaration | undefined): FunctionLike[] => {
    if (!declaration || !ours(declaration.getSourceFile())) return [];
    if (ts.isFunctionLike(declaration) && (declaration as FunctionLike).body)
      return [declaration as FunctionLike];
    if ((ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration)) && declaration.name) {
      const owner = declaration.parent;
      const name = declaration.name.getText();
      return classes
        .filter((cls) => cls !== owner && derivesFrom(cls, owner as ts.Declaration))
        .flatMap((cls) =>
          cls.members.filter(
            (m): m is ts.MethodDeclaration =>
              ts.isMethodDeclaration(m) && m.name.getText() === name && !!m.body,
          ),
        );
    }
    return [];
  };

  const memo = new Map<ts.Node, ReachableError[]>();
  const reach = (fn: FunctionLike): ReachableError[] => {
    const known = memo.get(fn);
    if (known) return known;
    const found: ReachableError[] = [];
    memo.set(fn, found); // a cycle adds nothing more
    const add = (errors: ReachableError[]) => {
      for (const e of errors) if (!found.some((f) => f.at === e.at)) found.push(e);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isNewExpression(node)) {
        if (isAppError(node.expression)) {
          const [status, message] = node.arguments ?? [];
          add([
            {
              statuses: status ? literalNumbers(checker.getTypeAtLocation(status)) : [],
              message: constantText(message),
              at: where(node),
            },
          ]);
        } else {
          for (const target of targetsOf(checker.getResolvedSignature(node)?.declaration)) add(reach(target));
        }
      } else if (ts.isCallExpression(node)) {
        for (const target of targetsOf(checker.getResolvedSignature(node)?.declaration)) add(reach(target));
      }
      ts.forEachChild(node, visit);
    };
    if (fn.body) visit(fn.body);
    return found;
  };

  /** `canActivate` of the guards a `@UseGuards(...)` on the class or the handler names. */
  const guardsOf = (node: ts.Node): FunctionLike[] =>
    (ts.canHaveDecorators(node) ? (ts.getDecorators(node) ?? []) : []).flatMap((d) => {
      const call = d.expression;
      if (!ts.isCallExpression(call) || call.expression.getText() !== 'UseGuards') return [];
      return call.arguments.flatMap((argument) => {
        const guard = declarationOf(argument);
        if (!guard || !ts.isClassDeclaration(guard)) return [];
        return guard.members.filter(
          (m): m is ts.MethodDeclaration =>
            ts.isMethodDeclaration(m) && m.name.getText() === 'canActivate' && !!m.body,
        );
      });
    });

  const out = new Map<string, ReachableError[]>();
  for (const cls of classes) {
    if (!cls.name || !decoratorNames(cls).includes('Controller')) continue;
    for (const member of cls.members) {
      if (!ts.isMethodDeclaration(member) || !member.body) continue;
      if (!decoratorNames(member).some((n) => HTTP_DECORATORS.has(n))) continue;
      const errors = [...guardsOf(cls), ...guardsOf(member), member].flatMap(reach);
      out.set(
        `${cls.name.text}_${member.name.getText()}`,
        errors.filter((e, i) => errors.findIndex((f) => f.at === e.at) === i),
      );
    }
  }
  return out;
}
