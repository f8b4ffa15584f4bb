/**
 * Turns any text into a URL segment: Unicode NFKD, combining marks removed,
 * lowercase, `@`/`&`/`%` spelled out, every other run of characters outside
 * `[a-z0-9]` collapsed to one `-`, no leading or trailing `-` (SPEC 4).
 *
 * @example
 * ```ts
 * import { slugify } from "./slugify.ts";
 * slugify("Guía Rápida"); // "guia-rapida"
 * slugify("C# & .NET"); // "c-and-net"
 * ```
 */
export function slugify(text: string): string {
  return fold(text)
    .replace(/@/g, " at ")
    .replace(/&/g, " and ")
    .replace(/%/g, " percent ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * Folds text for comparison: NFKD, combining marks removed, lowercase.
 * Search terms and the searched text both pass through it, so matching
 * ignores case and accents.
 *
 * @example
 * ```ts
 * import { fold } from "./slugify.ts";
 * fold("Ünïcode Café"); // "unicode cafe"
 * ```
 */
export function fold(text: string): string {
  // Each non-ASCII character on its own, through a cache, and one lowercasing
  // of the whole: cheaper than a Unicode property regex over whole bodies, and
  // than appending character by character, which leaves a tree of strings for
  // the first search to flatten (docs/performance.md).
  // Per-character folding is the same as folding the whole string but for
  // context-dependent lowercasing (a final Greek sigma), and queries are
  // folded the same way.
  return text.replace(NON_ASCII, foldChar).toLowerCase();
}

/** One code point (or a lone surrogate) outside ASCII. */
const NON_ASCII = /[\u0080-\u{10ffff}]/gu;
const MARKS = /\p{M}+/gu;
const folds = new Map<string, string>();

function foldChar(char: string): string {
  let folded = folds.get(char);
  if (folded === undefined) {
    folded = char.normalize("NFKD").replace(MARKS, "").toLowerCase();
    if (folds.size < 65536) folds.set(char, folded);
  }
  return folded;
}
