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
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}
