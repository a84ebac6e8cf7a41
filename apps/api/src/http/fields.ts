import { errors } from "@kasse/core";

/** A node of a `fields` selection: keep everything at this level (`all`) and/or named children. */
export interface FieldNode {
  all: boolean;
  children: Map<string, FieldNode>;
  removed: Set<string>;
}

/** A parsed `fields` parameter. `undefined` input means the resource's full default shape. */
export interface FieldSelection {
  root: FieldNode;
  /** Every path named in the request (without `+`, `-`, `*`), e.g. `variants.inventory_quantity`. */
  named: Set<string>;
}

const node = (all: boolean): FieldNode => ({ all, children: new Map(), removed: new Set() });
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parses `fields`: `id,title,variants.sku` (only these), `*` (all defaults) plus extras,
 * Medusa's `*variants` (a relation whole), `+field` (add to defaults), `-field` (remove).
 * @example
 * const selection = parseFields("*,variants.inventory_quantity");
 * wants(selection, "variants.inventory_quantity"); // true
 */
export function parseFields(raw: string | undefined): FieldSelection {
  const root = node(true);
  const named = new Set<string>();
  if (raw === undefined || raw.trim() === "") return { root, named };
  const parts = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  // Only bare names (no `*`, `+`, `-`) narrow the response to what is named.
  root.all = !parts.some((p) => !/^[*+-]/.test(p) && p !== "*");
  for (const part of parts) {
    if (part === "*") {
      root.all = true;
      continue;
    }
    const sign = part[0] === "+" || part[0] === "-" ? part[0] : "";
    let path = sign ? part.slice(1) : part;
    if (path.startsWith("*")) path = path.slice(1);
    if (path.endsWith(".*")) path = path.slice(0, -2);
    const segments = path.split(".");
    if (segments.some((s) => !FIELD.test(s))) throw errors.invalidData(`Invalid field '${part}' in fields`);
    named.add(segments.join("."));
    if (sign === "-") {
      let parent = root;
      for (const segment of segments.slice(0, -1)) parent = child(parent, segment, parent.all);
      parent.removed.add(segments[segments.length - 1]!);
      continue;
    }
    let current = root;
    // A named leaf is kept whole: `collection` and `*collection` both mean the relation with its fields.
    segments.forEach((segment, i) => {
      current = child(current, segment, current.all || i === segments.length - 1);
    });
  }
  keepNamedInsideRemoved(root, named, "");
  return { root, named };
}

/**
 * `-variants,variants.id` (Medusa's product list): the relation's defaults are removed, but the
 * paths named inside it stay, so the answer is `variants: [{id}]`.
 */
function keepNamedInsideRemoved(spec: FieldNode, named: Set<string>, prefix: string): void {
  for (const [name, sub] of spec.children) {
    const path = `${prefix}${name}`;
    if (spec.removed.has(name) && [...named].some((n) => n.startsWith(`${path}.`))) {
      spec.removed.delete(name);
      sub.all = false;
    }
    keepNamedInsideRemoved(sub, named, `${path}.`);
  }
}

function child(parent: FieldNode, name: string, all: boolean): FieldNode {
  let existing = parent.children.get(name);
  if (!existing) {
    existing = node(all);
    parent.children.set(name, existing);
  } else if (all) existing.all = true;
  return existing;
}

/**
 * Keeps top-level `keys` in the answer whatever `fields` says (Medusa answers an order's
 * `payment_status` and `fulfillment_status` even when a selection leaves them out). Returns the
 * selection for chaining; `-key` in the request still removes one.
 * @example
 * project(order, always(parseFields("id,total"), "payment_status")); // {id, total, payment_status}
 */
export function always(selection: FieldSelection, ...keys: string[]): FieldSelection {
  if (selection.root.all) return selection;
  for (const key of keys) if (!selection.root.removed.has(key)) child(selection.root, key, true);
  return selection;
}

/** Whether the request named `path` (or a path below it): loaders use it to fetch extras on demand. */
export function wants(selection: FieldSelection, path: string): boolean {
  for (const name of selection.named) if (name === path || name.startsWith(`${path}.`)) return true;
  return false;
}

/**
 * Shapes a response object to the selection. With `all`, every key present is kept (extras
 * appear only when a loader added them); otherwise only named keys, and always `id`.
 */
export function project<T>(value: T, selection: FieldSelection | FieldNode): T {
  const root = "root" in selection ? selection.root : selection;
  return projectNode(value, root) as T;
}

function projectNode(value: unknown, spec: FieldNode): unknown {
  // Everything at this level and below, nothing removed (no `fields`): the value as it is, not a
  // copy of every object in the answer.
  if (spec.all && spec.children.size === 0 && spec.removed.size === 0) return value;
  if (Array.isArray(value)) return value.map((item) => projectNode(item, spec));
  if (value === null || typeof value !== "object" || value instanceof Date) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (spec.all) {
    for (const [key, field] of Object.entries(source)) {
      if (spec.removed.has(key)) continue;
      const sub = spec.children.get(key);
      out[key] = sub ? projectNode(field, sub) : field;
    }
    return out;
  }
  if ("id" in source) out.id = source.id;
  for (const [key, sub] of spec.children) {
    if (key in source && !spec.removed.has(key)) out[key] = projectNode(source[key], sub);
  }
  return out;
}
