// A file's front matter read key by key (SPEC 4): the nested forms of
// generators as flat keys, and each value of the wrong type a warning that
// names the file and the key, then the field's default.
import type { Warning } from "../source/parsed_file.ts";
import { parseDate } from "../util/dates.ts";
import { quoteValue } from "../util/quote.ts";

/** The front matter of one file, read with a warning for each value of the wrong type. */
export interface AttrReader {
  /** The front matter, nested forms read as flat keys ({@link withAliases}). */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** Warns that `key` holds no `expected` value, and that `fallback` is used instead. */
  warn(key: string, expected: string, fallback: string): void;
  /** A string value; `undefined` when absent or (with a warning) not a string. */
  str(key: string): string | undefined;
  /**
   * A value where text is expected (SPEC 16.4): a string, or a number or a
   * boolean as its text (`title: 2025`), without a warning; `undefined`
   * when absent or (with a warning) a list or a map.
   */
  text(key: string): string | undefined;
  /** A boolean value; `undefined` when absent or (with a warning) not a boolean. */
  bool(key: string): boolean | undefined;
  /** A date as epoch ms; `undefined` when absent, empty or (with a warning) unparsable. */
  date(key: string): number | undefined;
}

/**
 * Reads a file's front matter (with its aliases) for {@link AttrReader}'s
 * typed values, each warning pushed to `warnings` with the path `shown`.
 *
 * @example
 * ```ts
 * import { readAttrs } from "./attrs.ts";
 * const warnings: { file: string; message: string }[] = [];
 * const read = readAttrs({ title: 3, image: [1], draft: false }, "docs/a.md", warnings);
 * read.str("title"); // undefined, and a warning
 * read.text("title"); // "3", without a warning
 * read.text("image"); // undefined, and a warning
 * read.bool("draft"); // false
 * ```
 */
export function readAttrs(
  frontMatter: Readonly<Record<string, unknown>>,
  shown: string,
  warnings: Warning[],
): AttrReader {
  const attrs = withAliases(frontMatter);
  const warn = (key: string, expected: string, fallback: string) =>
    warnings.push({
      file: shown,
      message: `front matter '${key}': expected ${expected}, got ${
        quoteValue(attrs[key])
      }; using ${fallback}`,
    });
  const typed = <T>(key: string, is: (value: unknown) => value is T, expected: string) => {
    const value = attrs[key];
    if (value == null) return undefined;
    if (is(value)) return value;
    warn(key, expected, "the default");
    return undefined;
  };
  const str = (key: string) => typed(key, isString, "a string");
  const text = (key: string) => {
    const value = attrs[key];
    if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
      return Number.isNaN(value) ? undefined : String(value);
    }
    return typed(key, isString, "a string");
  };
  const bool = (key: string) => typed(key, isBoolean, "true or false");
  const date = (key: string): number | undefined => {
    const value = attrs[key];
    if (value == null || value === "") return undefined;
    const ms = parseDate(value);
    if (ms === undefined) warn(key, "a date (YYYY-MM-DD, ISO 8601 or Unix seconds)", "the default");
    return ms;
  };
  return { attrs, warn, str, text, bool, date };
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === "boolean";
}

/**
 * The front matter with the nested forms of generators read as flat keys:
 * Starlight's `sidebar: { order }` as `sidebar.order`, and Docusaurus's
 * `last_update: { date }` as its date. Starlight's `lastUpdated: true`
 * (take the date from git) counts as absent.
 *
 * @example
 * ```ts
 * import { withAliases } from "./attrs.ts";
 * withAliases({ sidebar: { order: 2 } })["sidebar.order"]; // 2
 * ```
 */
export function withAliases(
  attrs: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  const sidebar = attrs.sidebar;
  const update = attrs.last_update;
  const touched = typeof attrs.lastUpdated === "boolean" ||
    (typeof update === "object" && update !== null && !Array.isArray(update)) ||
    (typeof sidebar === "object" && sidebar !== null && "order" in sidebar);
  if (!touched) return attrs;
  const out: Record<string, unknown> = { ...attrs };
  if (typeof attrs.lastUpdated === "boolean") delete out.lastUpdated;
  if (typeof update === "object" && update !== null && !Array.isArray(update)) {
    out.last_update = (update as { date?: unknown }).date;
  }
  if (typeof sidebar === "object" && sidebar !== null && "order" in sidebar) {
    out["sidebar.order"] = (sidebar as { order?: unknown }).order;
  }
  return out;
}
