import type { Leaf, Node, ObjectNode } from '../../config/config-schema';
import type { Int } from '../../common/int';

/**
 * The configuration editor's form (`GET /configuration/schema`), in the original's shape: objects
 * `{ type: "object", label, fields }`, arrays `{ type: "array", label, items }`, leaves `{ type, label }` with their
 * bounds (`min`, `max`, `maxLength`), and a choice of fixed strings as `{ type: "select", label, options }`. Built from the one schema that also gives defaults and PATCH validation.
 */
export type FormNode =
  | { type: 'object'; label: string; fields: Record<string, FormNode> }
  | { type: 'array'; label: string; items: FormNode; maxItems?: Int }
  | { type: 'boolean'; label: string }
  | { type: 'number'; label: string; integer?: true; min?: number; max?: number }
  | { type: 'string'; label: string; maxLength?: Int }
  | { type: 'select'; label: string; options: string[] };

/** `leaderboardExpirationTimeInDays` → "Leaderboard Expiration Time In Days". */
export function labelOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function leafForm(leaf: Leaf, label: string): FormNode {
  switch (leaf.kind) {
    case 'boolean':
      return { type: 'boolean', label };
    case 'string':
      if (leaf.options !== undefined) return { type: 'select', label, options: [...leaf.options] };
      return Object.assign(
        { type: 'string' as const, label },
        leaf.maxLength === undefined ? {} : { maxLength: leaf.maxLength },
      );
    case 'number':
      return Object.assign(
        { type: 'number' as const, label },
        leaf.integer ? { integer: true as const } : {},
        leaf.min === undefined ? {} : { min: leaf.min },
        leaf.max === undefined ? {} : { max: leaf.max },
      );
    case 'array':
      return Object.assign(
        { type: 'array' as const, label, items: formOf(leaf.item, 'Item') },
        leaf.maxItems === undefined ? {} : { maxItems: leaf.maxItems },
      );
  }
}

export function formOf(node: Node, label: string): FormNode {
  if (node.kind !== 'object') return leafForm(node, label);
  const fields: Record<string, FormNode> = {};
  for (const [key, child] of Object.entries((node as ObjectNode).fields))
    fields[key] = formOf(child, labelOf(key));
  return { type: 'object', label, fields };
}
