/**
 * The generated parts of docs/configuration.md: the table of environment variables (from `ENV_VARIABLES`, the list
 * `loadEnv` takes its defaults from) and the table of server configuration settings (types, bounds and defaults from
 * the schema itself, descriptions from the comments written beside it). Each table sits between two markers in the
 * file; everything outside them is prose written by hand.
 *
 * `npm run docs:configuration` writes them (scripts/docs-configuration.js); configuration-doc.spec.ts fails when the
 * committed file differs from what it would write.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import type { Leaf, Node, ObjectNode } from '../../src/config/config-schema';
import { ENV_VARIABLES, type EnvVariable } from '../../src/config/env-variables';
import { SERVER_CONFIGURATION_SCHEMA } from '../../src/config/server-configuration.schema';

export const ROOT = join(__dirname, '..', '..');
export const CONFIGURATION_DOC = 'docs/configuration.md';

/** The files whose comments describe the settings, and the schema constants and interfaces declared in them. */
const SCHEMA_SOURCES = [
  'src/config/server-configuration.schema.ts',
  'src/config/anti-cheat-configuration.ts',
];
const ROOT_SCHEMA = 'SERVER_CONFIGURATION_SCHEMA';
const ROOT_INTERFACE = 'ServerConfiguration';

// ---------------------------------------------------------------------------------------------------------------
// Markdown

/** A cell's text: pipes escaped (also inside code spans, as GitHub's tables require), one line. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/**
 * A table laid out as prettier lays it out (every column padded to its widest cell), so `npm run lint`'s format
 * check accepts the generated file as it is written. All our text is of characters one column wide.
 */
export function markdownTable(header: string[], rows: string[][]): string {
  const all = [header, ...rows].map((row) => row.map(cell));
  const widths = header.map((_, i) => Math.max(3, ...all.map((row) => [...row[i]!].length)));
  const line = (row: string[]) =>
    `| ${row.map((text, i) => text + ' '.repeat(widths[i]! - [...text].length)).join(' | ')} |`;
  const [head, ...body] = all;
  return [line(head!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...body.map(line)].join('\n');
}

const code = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

// ---------------------------------------------------------------------------------------------------------------
// Environment variables

function envDefault(variable: EnvVariable): string {
  if (variable.default !== undefined)
    return variable.default === '' ? '(empty)' : code(String(variable.default));
  return variable.otherwise ?? '';
}

export function environmentTable(variables: Record<string, EnvVariable> = ENV_VARIABLES): string {
  const rows = Object.entries(variables).map(([name, variable]) => {
    const facts = [
      variable.default !== undefined && variable.otherwise ? `(${variable.otherwise})` : '',
      variable.min !== undefined ? `Integer, at least ${variable.min}.` : '',
      variable.readBy ? `Read by \`${variable.readBy}\`.` : '',
    ].filter(Boolean);
    const description = variable.description.charAt(0).toUpperCase() + variable.description.slice(1);
    return [
      code(name),
      variable.required ?? 'no',
      envDefault(variable),
      [`${description}.`, ...facts].join(' '),
    ];
  });
  return markdownTable(['Variable', 'Required', 'Default', 'Meaning'], rows);
}

// ---------------------------------------------------------------------------------------------------------------
// Server configuration settings

/** The text of the comments just before a node (`//` lines or a `/** *\/` block), without their markers. */
function leadingComment(source: ts.SourceFile, node: ts.Node): string {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  return ranges
    .map((range) => source.text.slice(range.pos, range.end))
    .map((text) =>
      text.startsWith('//')
        ? text.slice(2)
        : text
            .replace(/^\/\*+|\*+\/$/g, '')
            .split('\n')
            .map((l) => l.replace(/^\s*\*\s?/, ''))
            .join(' '),
    )
    .map((text) => text.trim())
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The schema constants (`s.obj({...})`) and interfaces of the source files, by name. */
function declarations(sources: ts.SourceFile[]) {
  const objects = new Map<string, { source: ts.SourceFile; node: ts.ObjectLiteralExpression }>();
  const interfaces = new Map<string, { source: ts.SourceFile; node: ts.InterfaceDeclaration }>();
  for (const source of sources) {
    source.forEachChild(function visit(node) {
      if (ts.isInterfaceDeclaration(node)) interfaces.set(node.name.text, { source, node });
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
        const object = schemaObject(node.initializer);
        if (object) objects.set(node.name.text, { source, node: object });
      }
      node.forEachChild(visit);
    });
  }
  return { objects, interfaces };
}

/** The object literal of an `s.obj({...})` call. */
function schemaObject(node: ts.Expression): ts.ObjectLiteralExpression | undefined {
  if (!ts.isCallExpression(node) || node.expression.getText() !== 's.obj') return undefined;
  const [fields] = node.arguments;
  return fields && ts.isObjectLiteralExpression(fields) ? fields : undefined;
}

/**
 * Each setting's description, by dotted path: the comment above its field in the schema, then the doc comment of the
 * same field in the configuration's interface, both when they differ.
 */
export function settingDescriptions(root = ROOT): Map<string, string> {
  const sources = SCHEMA_SOURCES.map((file) =>
    ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true),
  );
  const { objects, interfaces } = declarations(sources);
  const found = new Map<string, string[]>();
  const add = (path: string, text: string) => {
    if (text && !found.get(path)?.includes(text)) found.set(path, [...(found.get(path) ?? []), text]);
  };

  const walkSchema = (source: ts.SourceFile, object: ts.ObjectLiteralExpression, prefix: string) => {
    for (const property of object.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const path = prefix + property.name.getText(source);
      add(path, leadingComment(source, property));
      const inner = schemaObject(property.initializer);
      if (inner) walkSchema(source, inner, `${path}.`);
      else if (ts.isIdentifier(property.initializer)) {
        const named = objects.get(property.initializer.text);
        if (named) walkSchema(named.source, named.node, `${path}.`);
      }
    }
  };
  const walkType = (source: ts.SourceFile, members: ts.NodeArray<ts.TypeElement>, prefix: string) => {
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const path = prefix + member.name.getText(source);
      add(path, leadingComment(source, member));
      if (ts.isTypeLiteralNode(member.type)) walkType(source, member.type.members, `${path}.`);
      else if (ts.isTypeReferenceNode(member.type)) {
        const named = interfaces.get(member.type.typeName.getText(source));
        if (named) walkType(named.source, named.node.members, `${path}.`);
      }
    }
  };

  const rootSchema = objects.get(ROOT_SCHEMA);
  const rootInterface = interfaces.get(ROOT_INTERFACE);
  if (!rootSchema || !rootInterface) throw new Error(`${ROOT_SCHEMA} or ${ROOT_INTERFACE} not found`);
  walkSchema(rootSchema.source, rootSchema.node, '');
  walkType(rootInterface.source, rootInterface.node.members, '');
  return new Map([...found].map(([path, texts]) => [path, texts.join(' ')]));
}

function bounds(min?: number, max?: number): string {
  if (min !== undefined && max !== undefined) return ` ${min}-${max}`;
  if (min !== undefined) return ` ≥ ${min}`;
  if (max !== undefined) return ` ≤ ${max}`;
  return '';
}

function typeOf(node: Leaf | ObjectNode): string {
  switch (node.kind) {
    case 'object':
      return `{ ${Object.keys(node.fields).join(', ')} }`;
    case 'boolean':
      return 'boolean';
    case 'number':
      return (node.integer ? 'integer' : 'number') + bounds(node.min, node.max);
    case 'string':
      if (node.options !== undefined) return `one of ${node.options.map((o) => code(o)).join(', ')}`;
      return node.maxLength !== undefined ? `text, ≤ ${node.maxLength} characters` : 'text';
    case 'array':
      return `list${node.maxItems !== undefined ? ` (≤ ${node.maxItems})` : ''} of ${typeOf(node.item)}`;
  }
}

/** Groups of settings large enough to get a table of their own, apart from their top-level group. */
const OWN_TABLES = ['results.antiCheat'];

/**
 * One table per top-level group of settings (and per group of OWN_TABLES), each under its heading: one row per
 * setting, and one per group of settings that has a description of its own.
 */
export function settingsTable(
  schema: ObjectNode = SERVER_CONFIGURATION_SCHEMA,
  descriptions: Map<string, string> = settingDescriptions(),
): string {
  const tables = new Map<string, string[][]>();
  const rowsOf = (table: string) => tables.get(table) ?? tables.set(table, []).get(table)!;
  const walk = (node: Node, path: string, table: string) => {
    const description = descriptions.get(path) ?? '';
    if (node.kind === 'object') {
      const own = OWN_TABLES.includes(path) ? path : table;
      if (description) rowsOf(own).push([code(path), '(group)', '', description]);
      for (const [key, child] of Object.entries(node.fields)) walk(child, `${path}.${key}`, own);
      return;
    }
    rowsOf(table).push([code(path), typeOf(node), code(JSON.stringify(node.default)), description]);
  };
  for (const [key, child] of Object.entries(schema.fields))
    walk(child, key, child.kind === 'object' ? key : '(top level)');
  return [...tables]
    .map(
      ([table, rows]) =>
        `### ${table.startsWith('(') ? 'Top level' : code(table)}\n\n${markdownTable(['Setting', 'Type', 'Default', 'Meaning'], rows)}`,
    )
    .join('\n\n');
}

// ---------------------------------------------------------------------------------------------------------------
// The file

const begin = (name: string) =>
  `<!-- BEGIN GENERATED ${name}: npm run docs:configuration writes this table -->`;
const end = (name: string) => `<!-- END GENERATED ${name} -->`;

/** Replaces what lies between the markers of `name` with `body`; the markers must be there, once each. */
export function replaceBetweenMarkers(text: string, name: string, body: string): string {
  const start = text.indexOf(begin(name));
  const stop = text.indexOf(end(name));
  if (start < 0 || stop < start || text.indexOf(begin(name), start + 1) >= 0)
    throw new Error(`${CONFIGURATION_DOC} needs the markers "${begin(name)}" and "${end(name)}", once each`);
  return `${text.slice(0, start)}${begin(name)}\n\n${body}\n\n${text.slice(stop)}`;
}

/** The file as `npm run docs:configuration` writes it, from its current text. */
export function renderConfigurationDoc(current: string): string {
  const withEnvironment = replaceBetweenMarkers(current, 'environment', environmentTable());
  return replaceBetweenMarkers(withEnvironment, 'settings', settingsTable());
}
