import type { TextBlock } from "../text/blocks.ts";
import { firstProse } from "../text/plain_text.ts";
import { textBlocks } from "../text/blocks.ts";

/**
 * The description an item falls back to (SPEC 4): the first prose paragraph
 * of the body's plain text, cut at the first space after 300 characters
 * with `...` appended when cut; `""` when the body has no prose.
 *
 * @param body the Markdown body, or its blocks when they are parsed already
 *
 * @example
 * ```ts
 * import { preview } from "./preview.ts";
 * preview("# Getting started\n\nInstall it with `npm i`, then run it."); // "Install it with npm i, then run it."
 * ```
 */
export function preview(body: string | readonly TextBlock[], max = 300): string {
  return cutDescription(firstProse(typeof body === "string" ? textBlocks(body) : body), max);
}

/**
 * A description cut at the first space after `max` characters, with `...`
 * appended when cut (SPEC 4). A text with no space after `max` (Chinese or
 * Japanese prose, a long run of symbols) is cut at `max` characters, so no
 * description is unbounded.
 *
 * @example
 * ```ts
 * import { cutDescription } from "./preview.ts";
 * cutDescription(`${"x".repeat(298)} abcdef ghi`); // "xx…x abcdef..."
 * ```
 */
export function cutDescription(text: string, max = 300): string {
  const chars = [...text]; // characters, not UTF-16 code units
  if (chars.length <= max) return text;
  const space = chars.indexOf(" ", max);
  return `${chars.slice(0, space === -1 ? max : space).join("")}...`;
}
