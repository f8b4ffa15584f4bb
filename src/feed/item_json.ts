import type { Item } from "../index/item.ts";
import type { ItemExtras } from "../index/item_fields.ts";
import { SEED_SHAPE, type Shape } from "../index/shape.ts";

/**
 * An item as JSON with the fields of a shape, in its order (SPEC 6, 6.2,
 * 7): the one item writer, each value written by its entry of the field
 * table (`index/item_fields.ts`); `link` and a root-relative `image` or
 * `url` made absolute with `base`; `body`, `text` and `sections` from
 * `extras`. Without a shape, the seed's fields (a feed item).
 *
 * @throws {TypeError} when a field needs an extra that `extras` lacks
 *
 * @example
 * ```ts
 * import { itemJson } from "./item_json.ts";
 * import { shapeOf } from "../index/shape.ts";
 * declare const item: import("../index/item.ts").Item;
 * itemJson(item, "https://example.com");
 * // '{"id":"docs_doc_intro","checksum":"9f2c…",…,"time":1}'
 * itemJson(item, "https://example.com", shapeOf(["id", "checksum", "last_update"]));
 * // '{"id":"docs_doc_intro","checksum":"9f2c…","last_update":"2026-03-02"}'
 * ```
 */
export function itemJson(
  item: Item,
  base: string,
  shape: Shape = SEED_SHAPE,
  extras: ItemExtras = {},
): string {
  const { fields, keys } = shape;
  let out = "";
  for (let i = 0; i < fields.length; i++) out += keys[i] + fields[i].json(item, base, extras);
  return fields.length === 0 ? "{}" : `${out}}`;
}
