import { deriveFields, type FileFields } from "./derive.ts";
import type { NameSlug } from "./people.ts";
import type { IndexedFile, ParsedFile, Warning } from "../source/parsed_file.ts";

/** What deriving a file gave: its fields and the warnings about its front matter. */
export interface Derived {
  readonly fields: FileFields;
  readonly warnings: readonly Warning[];
}

/**
 * Derived fields per parsed file object: a reload re-derives only the files
 * it re-read, and a file the start-up helper derived is not derived again.
 */
const memo = new WeakMap<IndexedFile, Derived & { readonly shown: string }>();

/**
 * Derives a file's fields (SPEC 4) once per parsed file and `shown` path,
 * adding its warnings to `warnings` on every call.
 *
 * @param shown the path printed in warnings (relative to the content root)
 *
 * @example
 * ```ts
 * import { derivedFields } from "./derived.ts";
 * const warnings: { file: string; message: string }[] = [];
 * derivedFields(file, "docs/intro.md", warnings).slug; // "intro"
 * ```
 */
export function derivedFields(file: IndexedFile, shown: string, warnings: Warning[]): FileFields {
  let entry = memo.get(file);
  if (!entry || entry.shown !== shown) {
    if (!("attrs" in file)) {
      throw new Error(`${shown}: the file's text was let go before its fields were derived`);
    }
    const own: Warning[] = [];
    entry = kept({ shown, fields: deriveFields(file as ParsedFile, shown, own), warnings: own });
    memo.set(file, entry);
  }
  warnings.push(...entry.warnings);
  return entry.fields;
}

/**
 * Records fields derived elsewhere (the start-up helper worker, which
 * derives the files it reads), so the index build does not derive them again.
 *
 * @example
 * ```ts
 * import { rememberDerived } from "./derived.ts";
 * rememberDerived(file, { shown: "docs/intro.md", fields, warnings: [] });
 * ```
 */
export function rememberDerived(
  file: IndexedFile,
  derived: Derived & { readonly shown: string },
): void {
  memo.set(file, kept(derived));
}

/**
 * A parsed file without its text (front matter and body), with its fields
 * derived and remembered: what a server's loader keeps, so the index does
 * not hold the text of every file (a body is read again when a request
 * needs it).
 *
 * @example
 * ```ts
 * import { textless } from "./derived.ts";
 * const kept = textless(file, "docs/intro.md");
 * "body" in kept; // false
 * ```
 */
export function textless(file: ParsedFile, shown: string): IndexedFile {
  const warnings: Warning[] = [];
  const fields = deriveFields(file, shown, warnings);
  const lean = indexedPart(file);
  rememberDerived(lean, { shown, fields, warnings });
  return lean;
}

/**
 * What the index needs of a parsed file: a new object without its front
 * matter and body.
 *
 * @example
 * ```ts
 * import { indexedPart } from "./derived.ts";
 * indexedPart(file); // { plugin: "docs", path: "intro.md", checksum: "…", mtime: … }
 * ```
 */
export function indexedPart(file: ParsedFile): IndexedFile {
  return { plugin: file.plugin, path: file.path, checksum: file.checksum, mtime: file.mtime };
}

const NO_WARNINGS: readonly Warning[] = Object.freeze([]);
/** One object per author or tag name and slug, shared by every file that names it. */
const people = new Map<string, NameSlug>();
/** Distinct names kept before the table starts over (it only saves memory). */
const MAX_PEOPLE = 100_000;

/**
 * What the memo keeps of a derivation: the same authors and tags objects for
 * every file that names them, and one empty warning list, instead of tens of
 * thousands of copies (about 3 MB at 10,000 files).
 */
function kept<T extends Derived>(derived: T): T {
  for (const list of [derived.fields.authors, derived.fields.tags]) {
    if (Object.isFrozen(list)) continue;
    const own = list as NameSlug[];
    for (let i = 0; i < own.length; i++) {
      const key = `${own[i].name}\n${own[i].slug}`;
      const known = people.get(key);
      if (known) own[i] = known;
      else {
        if (people.size >= MAX_PEOPLE) people.clear();
        people.set(key, own[i]);
      }
    }
  }
  return derived.warnings.length === 0 ? { ...derived, warnings: NO_WARNINGS } : derived;
}
