import type { Item } from "../index/item.ts";
import type { IncludeField } from "./query.ts";
import { absoluteUrl, type ItemExtras, itemJson, sectionObjects } from "./render.ts";

/**
 * An item's JSON form (SPEC 7): the feed fields, then `body`, `parent`,
 * `children`, then what `include` adds (`url`, `text`, `sections`, in that
 * order; `body` is there already), `text` and `sections` from `extras`.
 *
 * @param body the item's body; defaults to `item.body`, which an index built
 *   by the server's loader does not hold (the server reads it from the file)
 * @throws {TypeError} when neither `body` nor `item.body` is given
 *
 * @example
 * ```ts
 * import { renderItem } from "./item_form.ts";
 * import { buildIndex } from "../index/build.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * renderItem(index.byPath.get("docs/intro")!, "https://example.com");
 * ```
 */
export function renderItem(
  item: Item,
  base: string,
  body = item.body,
  include: readonly IncludeField[] = [],
  extras: ItemExtras = {},
): string {
  if (body === undefined) throw new TypeError(`${item.id}: no body given and the item holds none`);
  const q = JSON.stringify;
  let added = "";
  if (include.includes("url")) added += `,"url":${q(absoluteUrl(item.url, base))}`;
  for (const field of ["text", "sections"] as const) {
    if (!include.includes(field)) continue;
    if (extras[field] === undefined) throw new TypeError(`${item.id}: no ${field} given`);
    added += `,${q(field)}:${
      q(
        field === "text" ? extras.text : sectionObjects(extras.sections!),
      )
    }`;
  }
  // Built per request (and then cached as a response), not kept per item:
  // a serialized copy of every body would double what bodies cost in memory.
  return `${itemJson(item, base).slice(0, -1)},"body":${q(body)},"parent":${
    q(item.parent)
  },"children":${q(item.children)}${added}}`;
}
