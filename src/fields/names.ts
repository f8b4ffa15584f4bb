import { fieldText } from "../text/field_text.ts";
import { quoteValue } from "../util/quote.ts";
import { slugify } from "../util/slugify.ts";

/** An author or a tag as the feed prints it (tags add `count` at render time). */
export interface NameSlug {
  /** As written (trimmed). */
  readonly name: string;
  /** `slugify(name)`, or the slug given. */
  readonly slug: string;
}

/** The author of an item that names none. */
export const ANONYMOUS: readonly NameSlug[] = Object.freeze([
  Object.freeze({ name: "Anonymous", slug: "anonymous" }),
]);

/**
 * Reads front matter `authors` (SPEC 4, 16.4): a string, a list of strings,
 * or a list of `{name, slug}` (`slug` defaults to `slugify(name)`). A string
 * may hold several names and Markdown links: `[A](https://a.dev), [B](…)`
 * is two authors named A and B, and so is `A, B` or `A and B` where a comma
 * or a link already parts names (`Tom and Jerry` alone is one name). A
 * name that is a key of `names` (the authors file) stands for that key's
 * name; markup in a name is read as text. Entries that are none of those
 * are dropped; `problem` says why so the caller can warn.
 *
 * @example
 * ```ts
 * import { parseAuthors } from "./names.ts";
 * parseAuthors(["Ana Pérez", { name: "Jōji Tanaka", slug: "joji" }]).value;
 * // [{ name: "Ana Pérez", slug: "ana-perez" }, { name: "Jōji Tanaka", slug: "joji" }]
 * parseAuthors("[Ana](https://ana.dev), [Bo](https://bo.dev)").value.map((a) => a.name); // ["Ana", "Bo"]
 * ```
 */
export function parseAuthors(
  value: unknown,
  names?: ReadonlyMap<string, string>,
): { value: NameSlug[]; problem?: string } {
  // One author may be written as a string or as one {name} map.
  const single = typeof value === "string" ||
    (typeof value === "object" && value !== null && !Array.isArray(value));
  const list = single ? [value] : value;
  if (!Array.isArray(list)) {
    return {
      value: [],
      problem: `expected a string, a list of strings or a list of {name, slug}, got ${
        quoteValue(value)
      }`,
    };
  }
  const out: NameSlug[] = [];
  let problem: string | undefined;
  for (const entry of list) {
    // A string may name several authors (the one string of `author: A, B`; links in a list's).
    const written = typeof entry === "string" ? namesIn(entry, single, names) : [entry];
    for (const each of written) {
      // An author key of the authors file stands for its name.
      const named = typeof each === "string" ? names?.get(each.trim()) ?? fieldText(each) : each;
      const author = toNameSlug(named, true);
      if (author) out.push(author);
      else problem = `an entry is not a name or {name, slug}: ${quoteValue(entry)}`;
    }
  }
  return { value: dedupe(out), problem };
}

/** A Markdown link (its text and destination), or a comma, semicolon, `and` or `&` between names. */
const AUTHOR_PARTS =
  /\[((?:[^[\]\\]|\\.)*)\]\([^()\s]*(?:\s+"[^"]*")?\)|\s*(?:[,;]|\s(?:and|&)\s)\s*/g;

/**
 * The names a string holds: each Markdown link's text, and the text
 * between links and separators. The separators part names only where the
 * string holds a link, or (the one string of `author:`) a comma or a
 * semicolon: `Tom and Jerry` is one name, `Ana, Bo and Cy` three. A string
 * that is a key of `names` is one name.
 */
function namesIn(
  written: string,
  split: boolean,
  names: ReadonlyMap<string, string> | undefined,
): string[] {
  const link = written.includes("](");
  if (names?.has(written.trim())) return [written];
  if (!link && !(split && /[,;]/.test(written))) return [written];
  const found: string[] = [];
  let at = 0;
  for (const part of written.matchAll(AUTHOR_PARTS)) {
    const before = written.slice(at, part.index).trim();
    if (before) found.push(before);
    if (part[1] !== undefined && part[1].trim()) found.push(part[1]);
    at = part.index + part[0].length;
  }
  const rest = written.slice(at).trim();
  if (rest) found.push(rest);
  return found.length > 0 ? found : [written];
}

/**
 * Reads front matter `tags`: a list of strings, or one string for one tag;
 * duplicates by slug are dropped (the first spelling stays).
 *
 * @example
 * ```ts
 * import { parseTags } from "./names.ts";
 * parseTags(["Deno", "deno", "Guía"]).value;
 * // [{ name: "Deno", slug: "deno" }, { name: "Guía", slug: "guia" }]
 * ```
 */
export function parseTags(value: unknown): { value: NameSlug[]; problem?: string } {
  const list = typeof value === "string" || typeof value === "number" ? [value] : value;
  if (!Array.isArray(list)) {
    return { value: [], problem: `expected a list of strings, got ${quoteValue(value)}` };
  }
  const out: NameSlug[] = [];
  let problem: string | undefined;
  for (const entry of list) {
    const tag = toNameSlug(entry, false);
    if (tag) out.push(tag);
    else problem = `an entry is not a tag name with letters a-z or digits: ${quoteValue(entry)}`;
  }
  return { value: dedupe(out), problem };
}

function toNameSlug(entry: unknown, objects: boolean): NameSlug | undefined {
  if (typeof entry === "number" && Number.isFinite(entry)) entry = String(entry);
  if (typeof entry === "string") {
    const name = entry.trim();
    const slug = slugify(name);
    return slug ? { name, slug } : undefined;
  }
  if (objects && typeof entry === "object" && entry !== null && !Array.isArray(entry)) {
    const { name, slug } = entry as { name?: unknown; slug?: unknown };
    if (typeof name !== "string" || !name.trim()) return undefined;
    if (slug != null && typeof slug !== "string") return undefined;
    const own = slugify(typeof slug === "string" && slug ? slug : name);
    return own ? { name: name.trim(), slug: own } : undefined;
  }
  return undefined;
}

function dedupe(list: NameSlug[]): NameSlug[] {
  const seen = new Set<string>();
  return list.filter((entry) => !seen.has(entry.slug) && seen.add(entry.slug));
}

export { createNameInterner } from "./name_interner.ts";
