// Deriving a content file (SPEC 4, 16): its fields from its front matter
// and body, its generator's page, and what its dates are made of. Loaded
// only where a file is derived (the pipeline loads it at the first file to
// derive, the start-up worker at once).
import type { ParsedFile, Warning } from "../source/parsed_file.ts";
import { type DeriveContext, deriveFileFields, type FileFields } from "./derive.ts";
import { type IndexedFile, NO_WARNINGS, type Redate, withNames } from "./indexed_file.ts";
import type { NameSlug } from "./names.ts";
import { type PageContext, withPage } from "./page.ts";

export { withPage };

/** How {@link indexFile} keeps what it derives. */
export interface IndexFileOptions {
  /** Keep the body (a snapshot, an index that answers without files). Default `false`. */
  readonly keepBody?: boolean;
  /** Shares author and tag objects between files (see `createNameInterner`). */
  readonly shareNames?: (list: readonly NameSlug[]) => readonly NameSlug[];
  /** What deriving may know besides the file: the authors file, git dates, its generator. */
  readonly context?: DeriveContext & PageContext;
}

/**
 * Derives a parsed file's fields (SPEC 4) and keeps what the index needs.
 *
 * @param shown the path printed in warnings (relative to the content root)
 *
 * @example
 * ```ts
 * import { indexFile } from "./index_file.ts";
 * const file = indexFile({
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro" }, body: "Hello.",
 * }, "docs/intro.md");
 * file.fields.title; // "Intro"
 * "body" in file; // false
 * ```
 */
export function indexFile(
  parsed: ParsedFile,
  shown: string,
  options: IndexFileOptions = {},
): IndexedFile {
  const warnings: Warning[] = [];
  const context = options.context ?? {};
  const derived = deriveFileFields(parsed, shown, warnings, context);
  const before = context.generator && derived.dates.date === undefined
    ? { fields: derived.fields, warnings: [...warnings] }
    : undefined;
  const fields = withPage(parsed, derived.fields, shown, warnings, context);
  let redate: Redate | undefined;
  if (derived.dates.date === undefined || derived.dates.updated === undefined) {
    // Whether the page depends on the date: made again with other dates, is it the same? Two
    // dates that differ in every part a permalink may name (year, month, day, weekday, day of
    // the year, hour, minute, second), so the file's own date cannot match both.
    const page = before && DATE_PROBES.some((probe) =>
        !samePage(fields, withPage(parsed, { ...before.fields, ...probe }, shown, [], context))
      )
      ? { attrs: parsed.attrs, ...before }
      : undefined;
    redate = page ? { dates: derived.dates, page } : { dates: derived.dates };
  }
  return withNames({
    plugin: parsed.plugin,
    path: parsed.path,
    checksum: parsed.checksum,
    mtime: parsed.mtime,
    fields,
    warnings: warnings.length ? warnings : NO_WARNINGS,
    ...(options.keepBody ? { body: parsed.body } : {}),
    ...(redate ? { redate } : {}),
  }, options.shareNames);
}

/** The dates a page is made again with to tell whether it depends on its date. */
const DATE_PROBES = [
  { date: "1970-01-01", dateMs: 0 },
  { date: "1971-02-02", dateMs: Date.UTC(1971, 1, 2, 13, 14, 15) },
] as const;

/** Whether two fields give the same page (and leave the same pages out). */
function samePage(a: FileFields, b: FileFields): boolean {
  return a.notPage === b.notPage && JSON.stringify(a.page) === JSON.stringify(b.page);
}
