// Whether an item is hidden, indexable and searchable (SPEC 4 `draft`,
// `indexable`, `searchable`), and why it is not indexable (the reasons of
// SPEC 15). A flag that is not a boolean fails closed: it hides the item.
import { parseDate } from "../util/dates.ts";
import type { AttrReader } from "./attrs.ts";
import type { NotIndexable } from "./derive.ts";

/** What {@link deriveVisibility} reads of a file. */
export interface Visibility {
  /** Front matter `draft` (or Jekyll's `published: false`); a value that is not a boolean counts as true. */
  readonly draft: boolean;
  /** Front matter `indexable` when boolean, else listed with a body of at least 100 characters. */
  readonly indexable: boolean;
  /** Front matter `searchable` when boolean, else listed. */
  readonly searchable: boolean;
  /** Why the item is not indexable, when it is not. */
  readonly unindexed: NotIndexable | undefined;
}

/**
 * The draft, indexable and searchable flags of a file (SPEC 4): listed
 * means not a draft, not unlisted and not deprecated; an item is indexable
 * when listed and its body holds at least 100 characters, unless its front
 * matter says otherwise. Warnings go through `read`, in the order of the
 * keys: `published`, `draft`, `unlisted`, `deprecated`, `indexable`,
 * `searchable`.
 *
 * @example
 * ```ts
 * import { readAttrs } from "./attrs.ts";
 * import { deriveVisibility } from "./visibility.ts";
 * const read = readAttrs({ draft: "yes" }, "docs/a.md", []);
 * deriveVisibility(read, "Hi.").unindexed; // "draft"
 * ```
 */
export function deriveVisibility(read: AttrReader, body: string): Visibility {
  const { attrs, warn, bool } = read;
  // Fail closed (SPEC 4): `draft: yes` is a string in YAML 1.2, and a typo
  // must never publish a draft.
  const hiding = (key: string): boolean => {
    const value = attrs[key];
    if (value == null) return false;
    if (typeof value === "boolean") return value;
    warn(key, "true or false", "true (a value that is not false hides the item)");
    return true;
  };
  // Jekyll's `published: false` is its draft flag; fail closed the same way.
  const published = attrs.published;
  let unpublished = false;
  if (published != null && published !== true) {
    if (published !== false) warn("published", "true or false", "false (the item is hidden)");
    unpublished = true;
  }
  const draft = hiding("draft") || unpublished;
  const unlisted = hiding("unlisted");
  let deprecated = false;
  if (attrs.deprecated != null) {
    if (typeof attrs.deprecated === "boolean") deprecated = attrs.deprecated;
    else if (parseDate(attrs.deprecated) !== undefined) deprecated = true;
    else warn("deprecated", "true, false or a date", "false");
  }
  const listed = !draft && !unlisted && !deprecated;
  const explicitlyIndexable = bool("indexable");
  const indexable = explicitlyIndexable ?? (listed && atLeastChars(body, 100));
  const unindexed: NotIndexable | undefined = indexable
    ? undefined
    : explicitlyIndexable === false
    ? "indexable: false"
    : draft
    ? "draft"
    : unlisted
    ? "unlisted"
    : deprecated
    ? "deprecated"
    : body === ""
    ? "empty body"
    : "short body";
  const searchable = bool("searchable") ?? listed;
  return { draft, indexable, searchable, unindexed };
}

/** Whether text has at least `n` characters (code points), without counting long bodies in full. */
function atLeastChars(text: string, n: number): boolean {
  if (text.length >= 2 * n) return true; // a code point is at most two code units
  if (text.length < n) return false;
  return [...text].length >= n;
}
