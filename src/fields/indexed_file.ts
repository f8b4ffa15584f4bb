// What the index is built from, and what is made of it again without the
// file: the types, the names shared, the dates made again. Deriving a file
// (`index_file.ts`, which parses Markdown and loads the generators' rules)
// is apart, so a start that takes every file from the derivation cache
// loads none of it (SPEC 17).
import type { Warning } from "../source/parsed_file.ts";
import type { CommitDates } from "../source/git.ts";
import { type DateInputs, redatedFields } from "./dated.ts";
import type { FileFields } from "./derive.ts";
import type { NameSlug } from "./names.ts";
import type { PageContext, withPage } from "./page.ts";

/** No warnings, shared. */
export const NO_WARNINGS: readonly Warning[] = Object.freeze([]);

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

/**
 * The file with its dates made again for new commit dates (SPEC 4): the
 * file itself when nothing shown changes (no `redate`: its front matter
 * fixes both dates), else a copy with the new dates and, where its page
 * depends on its date, the new page. No read, no parse.
 *
 * @param shown the path printed in warnings (relative to the content root)
 * @param context what the file's page depends on (its plugin's generator and variant)
 * @param makePage the page maker (`fields/page.ts` `withPage`), for a file
 *   whose page depends on its date: only such a file (made by deriving it,
 *   in this process) holds `redate.page`
 *
 * @example
 * ```ts
 * import { indexFile } from "./index_file.ts";
 * import { redateFile } from "./indexed_file.ts";
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
  makePage?: typeof withPage,
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
  if (!makePage) {
    throw new Error(`${shown}: its page depends on its date: give redateFile withPage`);
  }
  const fields = makePage(parsed, before, shown, warnings, context);
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

/**
 * The file with another modification time, its bytes the same (a `touch`, a
 * fresh checkout, another runtime's stamps): its dates made again where the
 * modification time stands in for them (SPEC 4), as deriving it again would
 * make them. No read, no parse.
 *
 * @param git the commit dates `file` was made with
 * @param shown the path printed in warnings (relative to the content root)
 * @param context what the file's page depends on (its plugin's generator and variant)
 * @param makePage the page maker, for a file whose page depends on its date
 *
 * @example
 * ```ts
 * import { indexFile } from "./index_file.ts";
 * import { restampFile } from "./indexed_file.ts";
 * const file = indexFile({
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 1700000000000,
 *   attrs: { title: "Intro" }, body: "Hello.",
 * }, "docs/intro.md");
 * restampFile(file, 1600000000000, undefined, "docs/intro.md").fields.date; // "2020-09-13"
 * ```
 */
export function restampFile(
  file: IndexedFile,
  mtime: number,
  git: CommitDates | undefined,
  shown: string,
  context: PageContext = {},
  makePage?: typeof withPage,
): IndexedFile {
  const redate = file.redate;
  // Whole milliseconds, as deriving keeps them (`derive.ts`).
  const moved: IndexedFile = redate
    ? {
      ...file,
      mtime,
      redate: { ...redate, dates: { ...redate.dates, mtime: Math.floor(mtime) } },
    }
    : { ...file, mtime };
  return redateFile(moved, git, shown, context, makePage);
}
