import { absoluteUrl } from "../util/url.ts";
import type { Item } from "../index/item.ts";

/**
 * An item's Markdown form (SPEC 14, `GET /{type}/{uri}.md`): a small YAML
 * front matter of `title`, `description`, `url` and `last_update`, then the
 * body as written. Values are double-quoted YAML (JSON strings are valid
 * YAML), so no title can break the block.
 *
 * @example
 * ```ts
 * import { itemMarkdown } from "./markdown.ts";
 * declare const item: import("../index/item.ts").Item;
 * itemMarkdown(item, "https://example.com", "Hello.");
 * // '---\ntitle: "Intro"\ndescription: "…"\nurl: "https://example.com/docs/intro"\nlast_update: "2026-03-02"\n---\n\nHello.\n'
 * ```
 */
export function itemMarkdown(item: Item, base: string, body: string): string {
  const q = JSON.stringify;
  return `---\ntitle: ${q(item.title)}\ndescription: ${q(item.description)}\nurl: ${
    q(absoluteUrl(item.url, base))
  }\nlast_update: ${q(item.last_update)}\n---\n\n${body}${body.endsWith("\n") ? "" : "\n"}`;
}

/**
 * The URL of an item's Markdown form.
 *
 * @example
 * ```ts
 * import { markdownUrl } from "./markdown.ts";
 * declare const item: import("../index/item.ts").Item;
 * markdownUrl(item, "https://example.com"); // "https://example.com/docs/intro.md"
 * ```
 */
export function markdownUrl(item: Item, base: string): string {
  return `${base}/${item.type}/${item.uri}.md`;
}
