// File-name parts every generator's rules read: the folders and the name of a
// path, the name without its extension, a language suffix (`name.fr.md`), and
// a front-matter value read as text (SPEC 16.4: a scalar is its text).

/** A path's folders and its file name (`"a/b/c.md"` → `{ dirs: ["a", "b"], file: "c.md" }`). */
export interface PathParts {
  readonly dirs: readonly string[];
  readonly file: string;
}

/**
 * Splits a path under a variant's folder into its folders and its file name.
 *
 * @example
 * ```ts
 * import { pathParts } from "./names.ts";
 * pathParts("guides/01-intro.md"); // { dirs: ["guides"], file: "01-intro.md" }
 * ```
 */
export function pathParts(path: string): PathParts {
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  const file = segments.pop() ?? "";
  return { dirs: segments, file };
}

/**
 * A file name without its last extension (`"a.fr.md"` → `"a.fr"`); a name
 * that starts with its only dot keeps it.
 *
 * @example
 * ```ts
 * import { withoutExtension } from "./names.ts";
 * withoutExtension("getting-started.md"); // "getting-started"
 * ```
 */
export function withoutExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? name : name.slice(0, dot);
}

/**
 * A name without its `.<lang>` suffix when the variant has that locale and
 * the name carries it (Hugo's `name.<lang>.md`, mkdocs-static-i18n's suffix
 * structure); the name as it is otherwise. Locales compare without case.
 *
 * @example
 * ```ts
 * import { withoutLang } from "./names.ts";
 * withoutLang("about.fr", "fr"); // "about"
 * withoutLang("v3.5", "fr"); // "v3.5"
 * ```
 */
export function withoutLang(stem: string, lang: string | undefined): string {
  if (!lang) return stem;
  const suffix = `.${lang.toLowerCase()}`;
  return stem.length > suffix.length && stem.toLowerCase().endsWith(suffix)
    ? stem.slice(0, -suffix.length)
    : stem;
}

/**
 * A front-matter value as text: a string (blank is absent), or the text of a
 * number; anything else is absent.
 *
 * @example
 * ```ts
 * import { textOf } from "./names.ts";
 * textOf(2025); // "2025"
 * textOf("  "); // undefined
 * textOf(true); // undefined
 * ```
 */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string" || value.trim() === "") return undefined;
  return value;
}

/**
 * Whether a name is hidden from every generator: it starts with `.` (and is
 * not `.` or `..`).
 *
 * @example
 * ```ts
 * import { isDotName } from "./names.ts";
 * isDotName(".vitepress"); // true
 * ```
 */
export function isDotName(name: string): boolean {
  return name.startsWith(".") && name !== "." && name !== "..";
}
