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
  // Character by character with a cache: a Unicode property regex over whole
  // bodies was most of the index build's time. Per-character folding is the
  // same as folding the whole string but for context-dependent lowercasing
  // (a final Greek sigma), and queries are folded the same way.
  let out = "";
  let start = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128) continue;
    const end = code >= 0xd800 && code <= 0xdbff && i + 1 < length ? i + 2 : i + 1;
    const char = text.slice(i, end);
    let folded = folds.get(char);
    if (folded === undefined) {
      folded = char.normalize("NFKD").replace(MARKS, "").toLowerCase();
      if (folds.size < 65536) folds.set(char, folded);
    }
    out += text.slice(start, i).toLowerCase() + folded;
    start = end;
    i = end - 1;
  }
  return start === 0 ? text.toLowerCase() : out + text.slice(start).toLowerCase();
}

const MARKS = /\p{M}+/gu;
const folds = new Map<string, string>();
