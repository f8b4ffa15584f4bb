import type { ParsedFile, Warning } from "../source/parsed_file.ts";
import { type DeriveContext, deriveFields, type FileFields } from "./derive.ts";
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
  const fields = withPage(
    parsed,
    deriveFields(parsed, shown, warnings, options.context),
    shown,
    warnings,
    options.context ?? {},
  );
  return withNames({
    plugin: parsed.plugin,
    path: parsed.path,
    checksum: parsed.checksum,
    mtime: parsed.mtime,
    fields,
    warnings: warnings.length ? warnings : NO_WARNINGS,
    ...(options.keepBody ? { body: parsed.body } : {}),
  }, options.shareNames);
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
