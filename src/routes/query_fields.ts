// The shape parameters of a feed query (SPEC 6.2 `fields` and `include`):
// parsed against the field table, and the shape they give.
import {
  type AnyField,
  INCLUDE_FIELDS,
  type IncludeField,
  ITEM_FIELDS,
  type ItemField,
} from "../index/item_fields.ts";
import { SEED_SHAPE, type Shape, shapeOf } from "../index/shape.ts";

/** The seed shape's names, one array: a query without `fields` or `include` holds it. */
export const SEED_SHAPE_NAMES: readonly string[] = SEED_SHAPE.fields.map((field) => field.name);

/**
 * The shape of a query's items: its fields, with their writers.
 *
 * @example
 * ```ts
 * import { parseQuery } from "./query.ts";
 * import { shapeOfQuery } from "./query_fields.ts";
 * const query = parseQuery(new URLSearchParams("fields=last_update"), { types: [], categories: [] }).filters!;
 * shapeOfQuery(query).key; // "id,last_update"
 * ```
 */
export function shapeOfQuery(query: { readonly fields: readonly string[] }): Shape {
  return query.fields === SEED_SHAPE_NAMES ? SEED_SHAPE : shapeOf(query.fields as AnyField[]);
}

/**
 * Parses a `fields` value (SPEC 6.2): a comma list of item fields, given
 * back in canonical order with `id` first; or the sentence for a 400 when
 * it names a field there is none of.
 *
 * @example
 * ```ts
 * import { parseFields } from "./query_fields.ts";
 * parseFields("last_update,checksum"); // ["id", "checksum", "last_update"]
 * parseFields("id,nope"); // 'fields accepts id, checksum, …, got "nope"'
 * ```
 */
export function parseFields(value: string): ItemField[] | string {
  const names = value.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(ITEM_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    return `fields accepts ${ITEM_FIELDS.join(", ")}, got ${
      unknown.map((name) => JSON.stringify(name)).join(", ")
    }`;
  }
  return ITEM_FIELDS.filter((field) => field === "id" || names.includes(field));
}

/**
 * Parses an `include` value (SPEC 6.2): a comma list of opt-in fields, in
 * any order and spelling of repeats, given back in canonical order; or the
 * sentence for a 400 when it names a field there is none of.
 *
 * @example
 * ```ts
 * import { parseInclude } from "./query_fields.ts";
 * parseInclude("body,url"); // ["url", "body"]
 * parseInclude("url,nope"); // 'include accepts url, body, text, sections, got "nope"'
 * ```
 */
export function parseInclude(value: string): IncludeField[] | string {
  const names = value.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.find((name) => !(INCLUDE_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) {
    return `include accepts ${INCLUDE_FIELDS.join(", ")}, got ${JSON.stringify(unknown)}`;
  }
  return INCLUDE_FIELDS.filter((field) => names.includes(field));
}
