/**
 * Counts of the work text extraction (`text/`) has done in this process: what the
 * parser was given and gave back, and the checksums made. Tests bound these
 * (linear in a body's size) instead of timing the work; nothing else reads
 * them. Each is a running total: read one before and after.
 *
 * @example
 * ```ts
 * import { textWork } from "./work_counts.ts";
 * import { textBlocks } from "../text/blocks.ts";
 * const before = textWork.parsedChars;
 * textBlocks("- a *list*");
 * textWork.parsedChars - before; // 10
 * ```
 */
export const textWork = {
  /** Block parses (markdown-it runs over a body or a segment of one). */
  parses: 0,
  /** Characters of source those parses were given. */
  parsedChars: 0,
  /** Tokens they gave back. */
  tokens: 0,
  /** Characters of inline text parsed for markup. */
  inlineChars: 0,
  /** Segments long bodies were read in (`readBlocksPaced`). */
  segments: 0,
  /** SHA-256 checksums of sections' texts. */
  digests: 0,
  /** Characters (UTF-16 units) of text those checksums were made of. */
  digestedChars: 0,
};
