import { deriveFields, type FileFields } from "./derive.ts";
import type { NameSlug } from "./people.ts";
import type { ParsedFile, Warning } from "../source/parsed_file.ts";

/** What deriving a file gave: its fields and the warnings about its front matter. */
export interface Derived {
  readonly fields: FileFields;
  readonly warnings: readonly Warning[];
}

/**
 * Derived fields per parsed file object: a reload re-derives only the files
 * it re-read, and a file the start-up helper derived is not derived again.
 */
const memo = new WeakMap<ParsedFile, Derived & { readonly shown: string }>();

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
export function derivedFields(file: ParsedFile, shown: string, warnings: Warning[]): FileFields {
  let entry = memo.get(file);
  if (!entry || entry.shown !== shown) {
    const own: Warning[] = [];
    entry = kept({ shown, fields: deriveFields(file, shown, own), warnings: own });
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
  file: ParsedFile,
  derived: Derived & { readonly shown: string },
): void {
  memo.set(file, kept(derived));
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
