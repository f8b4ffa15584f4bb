import type { TextBlock } from "../text/blocks.ts";
import { collapseProse, firstProse } from "../text/plain_text.ts";
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
  if (text.length <= max) return text; // no more characters than code units
  const at = afterChars(text, max);
  if (at >= text.length) return text;
  const space = text.indexOf(" ", at);
  return `${text.slice(0, space === -1 ? at : space)}...`;
}

/**
 * Where the first `max` characters of `text` end, walked code point by code
 * point (a surrogate pair is one character), not over the whole text.
 */
function afterChars(text: string, max: number): number {
  let at = 0;
  for (let chars = 0; chars < max && at < text.length; chars++) {
    const code = text.charCodeAt(at);
    at += code >= 0xd800 && code <= 0xdbff && at + 1 < text.length ? 2 : 1;
  }
  return at;
}

/**
 * The description a first prose paragraph gives, as written (SPEC 4):
 * `cutDescription(collapseProse(prose), max)`, with only as much of a long
 * paragraph collapsed as the cut reads. A prefix collapses to a prefix of
 * the whole collapsed text (a run of white space cut short is still one
 * space), so once a prefix holds `max` characters and, after them, a space
 * with more text behind it, the cut is the whole text's. The first prefix
 * is `max` + 64 code units (most paragraphs are cut there); each next one
 * four times as long, and at last the whole paragraph.
 *
 * @example
 * ```ts
 * import { describeProse } from "./preview.ts";
 * describeProse("The first\n  real   paragraph."); // "The first real paragraph."
 * ```
 */
export function describeProse(prose: string, max = 300): string {
  for (let end = max + 64; end < prose.length; end *= 4) {
    const head = collapseProse(prose.slice(0, end));
    // cutDescription's walk, on the prefix: it reads no further than the space found, and a
    // space with a character after it was no run the prefix cut short.
    const space = head.indexOf(" ", afterChars(head, max));
    if (space !== -1 && space + 1 < head.length) return `${head.slice(0, space)}...`;
  }
  return cutDescription(collapseProse(prose), max);
}
