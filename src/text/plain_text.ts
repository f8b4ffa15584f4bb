import type { Pacer } from "../util/concurrency.ts";
import type { TextBlock } from "./blocks.ts";

/**
 * A body's plain text (SPEC 13): the text of its blocks, paragraphs
 * separated by a blank line.
 *
 * @example
 * ```ts
 * import { plainText } from "./plain_text.ts";
 * import { textBlocks } from "./blocks.ts";
 * plainText(textBlocks("# Title\n\nSome *text*.")); // "Title\n\nSome text."
 * ```
 */
export function plainText(blocks: readonly TextBlock[]): string {
  return blocks.map((block) => block.text).join("\n\n");
}

/**
 * The text of the first heading of a level, or `undefined` (SPEC 4 `title`:
 * the first level-1 heading, Markdown `#` or HTML `<h1>`).
 *
 * @example
 * ```ts
 * import { firstHeading } from "./plain_text.ts";
 * import { textBlocks } from "./blocks.ts";
 * firstHeading(textBlocks("Intro.\n\n# The *real* title")); // "The real title"
 * ```
 */
export function firstHeading(blocks: readonly TextBlock[], level = 1): string | undefined {
  return blocks.find((block) => block.kind === "heading" && block.level === level && block.text)
    ?.text;
}

/**
 * The first prose paragraph, its whitespace collapsed, or `""` when the
 * body has none (SPEC 4 `description`): headings, code, HTML and JSX
 * blocks, tables and image-only paragraphs are not prose.
 *
 * @example
 * ```ts
 * import { firstProse } from "./plain_text.ts";
 * import { textBlocks } from "./blocks.ts";
 * firstProse(textBlocks("# Title\n\n![logo](a.png)\n\nThe first\nreal paragraph.")); // "The first real paragraph."
 * ```
 */
export function firstProse(blocks: readonly TextBlock[]): string {
  return collapseProse(firstProseText(blocks));
}

/**
 * The text of the first prose paragraph as its block holds it (whitespace
 * not collapsed), or `""`: what {@link firstProse} collapses.
 *
 * @example
 * ```ts
 * import { firstProseText } from "./plain_text.ts";
 * import { textBlocks } from "./blocks.ts";
 * firstProseText(textBlocks("# Title\n\nThe first\nreal paragraph.")); // "The first\nreal paragraph."
 * ```
 */
export function firstProseText(blocks: readonly TextBlock[]): string {
  return blocks.find((b) => b.prose)?.text ?? "";
}

/**
 * A paragraph's text with each run of white space one space, trimmed: the
 * form of a first prose paragraph a description is cut from (SPEC 4).
 *
 * @example
 * ```ts
 * import { collapseProse } from "./plain_text.ts";
 * collapseProse("  The first\n  real   paragraph. "); // "The first real paragraph."
 * ```
 */
export function collapseProse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * {@link plainText} for request-time work: the same text, joined a run of
 * blocks at a time with `pace` between runs.
 *
 * @example
 * ```ts
 * import { plainTextPaced } from "./plain_text.ts";
 * import { textBlocks } from "./blocks.ts";
 * import { createPacer } from "../util/concurrency.ts";
 * await plainTextPaced(textBlocks("# Title\n\nSome *text*."), createPacer()); // "Title\n\nSome text."
 * ```
 */
export async function plainTextPaced(blocks: readonly TextBlock[], pace: Pacer): Promise<string> {
  if (blocks.length <= RUN) return plainText(blocks);
  const runs: string[] = [];
  for (let at = 0; at < blocks.length; at += RUN) {
    runs.push(plainText(blocks.slice(at, at + RUN)));
    const turn = pace();
    if (turn) await turn;
  }
  return runs.join("\n\n");
}

/** Blocks joined between two turns of a pacer. */
const RUN = 4096;
