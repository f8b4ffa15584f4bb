import type { ParsedFile, Warning } from "../source/parsed_file.ts";
import type { CommitDates } from "../source/git.ts";
import {
  type DateInputs,
  type DeriveContext,
  deriveFileFields,
  type FileFields,
  redatedFields,
} from "./derive.ts";
import type { NameSlug } from "./names.ts";
import { type PageContext, withPage } from "./page.ts";

/**
 * A content file with its own fields derived (SPEC 4): what the index is
 * built from. The front matter is gone once the fields are derived; the body
 * stays only where it is kept (a snapshot, `buildIndex` on parsed files): a
 * server reads a body again when a request needs it.
 */
export interface IndexedFile {
  /** Name of the content plugin that owns the file. */
  readonly plugin: string;
  /** Path relative to the plugin's folder, `/`-separated. */
  readonly path: string;
  /** SHA-256 of the raw bytes, lowercase hex. */
  readonly checksum: string;
  /** Modification time, epoch milliseconds. */
  readonly mtime: number;
  /** The fields that depend on this file alone. */
  readonly fields: FileFields;
  /** What deriving them found wrong with the front matter. */
  readonly warnings: readonly Warning[];
  /** The Markdown body, where it is kept. */
  readonly body?: string;
  /**
   * Present when the file's dates depend on its commit dates (its front
   * matter or name does not fix both): what {@link redateFile} makes them
   * of again when those change, without reading the file.
   */
  readonly redate?: Redate;
}

/** What a file's dates, and the page that depends on them, are made of again (SPEC 4, 16.2). */
export interface Redate {
  /** The dates' inputs besides git. */
  readonly dates: DateInputs;
  /**
   * Where the generator's page of the file depends on its date (a
   * permalink with `:year`, and no date in the file): the page is made
   * again from these, the fields and warnings before it was made.
   */
  readonly page?: {
    readonly attrs: Readonly<Record<string, unknown>>;
    readonly fields: FileFields;
    readonly warnings: readonly Warning[];
  };
}

/** How {@link indexFile} keeps what it derives. */
export interface IndexFileOptions {
  /** Keep the body (a snapshot, an index that answers without files). Default `false`. */
  readonly keepBody?: boolean;
  /** Shares author and tag objects between files (see `createNameInterner`). */
  readonly shareNames?: (list: readonly NameSlug[]) => readonly NameSlug[];
  /** What deriving may know besides the file: the authors file, git dates, its generator. */
  readonly context?: DeriveContext & PageContext;
}

const NO_WARNINGS: readonly Warning[] = Object.freeze([]);

/**
 * Derives a parsed file's fields (SPEC 4) and keeps what the index needs.
 *
 * @param shown the path printed in warnings (relative to the content root)
 *
 * @example
 * ```ts
 * import { indexFile } from "./indexed_file.ts";
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
    // Whether the page depends on the date: made again with another date, is it the same?
    const page = before && !samePage(
        fields,
        withPage(parsed, { ...before.fields, date: "1970-01-01", dateMs: 0 }, shown, [], context),
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

/** Whether two fields give the same page (and leave the same pages out). */
function samePage(a: FileFields, b: FileFields): boolean {
  return a.notPage === b.notPage && JSON.stringify(a.page) === JSON.stringify(b.page);
}

/**
 * The file with its dates made again for new commit dates (SPEC 4): the
 * file itself when nothing shown changes (no `redate`: its front matter
 * fixes both dates), else a copy with the new dates and, where its page
 * depends on its date, the new page. No read, no parse.
 *
 * @param shown the path printed in warnings (relative to the content root)
 * @param context what the file's page depends on (its plugin's generator and variant)
 *
 * @example
 * ```ts
 * import { indexFile, redateFile } from "./indexed_file.ts";
 * const file = indexFile({
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 1700000000000,
 *   attrs: { title: "Intro" }, body: "Hello.",
 * }, "docs/intro.md");
 * redateFile(file, { first: 1600000000000, last: 1650000000000 }, "docs/intro.md").fields.date;
 * // "2020-09-13"
 * ```
 */
export function redateFile(
  file: IndexedFile,
  git: CommitDates | undefined,
  shown: string,
  context: PageContext = {},
): IndexedFile {
  const redate = file.redate;
  if (!redate) return file;
  const page = redate.page;
  if (!page) {
    const fields = redatedFields(file.fields, redate.dates, git);
    return fields === file.fields ? file : { ...file, fields };
  }
  const before = redatedFields(page.fields, redate.dates, git);
  if (before === page.fields) return file;
  const warnings = [...page.warnings];
  const parsed = { ...file, attrs: page.attrs, body: "" };
  const fields = withPage(parsed, before, shown, warnings, context);
  return {
    ...file,
    fields,
    warnings: warnings.length ? warnings : NO_WARNINGS,
    redate: { dates: redate.dates, page: { ...page, fields: before } },
  };
}

/**
 * The same file with its authors and tags shared through `shareNames`: for
 * a file derived on another thread (the start-up helper), whose objects
 * arrive as copies.
 *
 * @example
 * ```ts
 * import { withNames } from "./indexed_file.ts";
 * import { createNameInterner } from "./names.ts";
 * const share = createNameInterner();
 * declare const file: import("./indexed_file.ts").IndexedFile;
 * withNames(file, share).fields.tags;
 * ```
 */
export function withNames(
  file: IndexedFile,
  shareNames: ((list: readonly NameSlug[]) => readonly NameSlug[]) | undefined,
): IndexedFile {
  if (!shareNames) return file;
  const { authors, tags } = file.fields;
  const fields = { ...file.fields, authors: shareNames(authors), tags: shareNames(tags) };
  return { ...file, fields };
}
