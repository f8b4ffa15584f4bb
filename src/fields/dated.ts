// A file's dates made again for new commit dates (SPEC 4, 17), without the
// file: what re-dating needs, apart from deriving (which parses Markdown),
// so a restart that takes every file from the derivation cache loads no
// parser.
import type { CommitDates } from "../source/git.ts";
import { formatDay } from "../util/dates.ts";
import type { FileFields } from "./derive.ts";

/**
 * What a file's dates are made of besides git (SPEC 4): the date its front
 * matter or its name gives, the last update its front matter gives, and its
 * modification time, which stands in where git gives nothing. Where either
 * date is not fixed by the file, commit dates that arrive later (or change)
 * re-date the fields without the file being read again ({@link redatedFields}).
 */
export interface DateInputs {
  /** Front matter `date` (or `created`), else the file name's date prefix, as epoch ms. */
  readonly date?: number;
  /** Front matter last update (`last_update`, `lastmod`, …), as epoch ms. */
  readonly updated?: number;
  /** The file's modification time, whole milliseconds. */
  readonly mtime: number;
}

/**
 * The fields with their dates made again from their inputs and a file's
 * (new) commit dates (SPEC 4): `fields` itself when the dates come out the
 * same, so a commit that changes nothing shown changes no item.
 *
 * @example
 * ```ts
 * import { deriveFileFields } from "./derive.ts";
 * import { redatedFields } from "./dated.ts";
 * const { fields, dates } = deriveFileFields({
 *   plugin: "docs", path: "intro.md", checksum: "", mtime: 1700000000000,
 *   attrs: { title: "Intro" }, body: "Hi there.",
 * }, "docs/intro.md", []);
 * redatedFields(fields, dates, { first: 1600000000000, last: 1650000000000 }).date; // "2020-09-13"
 * ```
 */
export function redatedFields(
  fields: FileFields,
  dates: DateInputs,
  git: CommitDates | undefined,
): FileFields {
  const dateMs = dates.date ?? git?.first ?? dates.mtime;
  const lastMs = dates.updated ?? git?.last ?? dates.mtime;
  const date = formatDay(dateMs);
  const lastUpdate = formatDay(lastMs);
  if (dateMs === fields.dateMs && date === fields.date && lastUpdate === fields.lastUpdate) {
    return fields;
  }
  return { ...fields, date, dateMs, lastUpdate };
}
