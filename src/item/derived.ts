import { deriveFields, type FileFields } from "./derive.ts";
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
    entry = { shown, fields: deriveFields(file, shown, own), warnings: own };
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
  memo.set(file, derived);
}
