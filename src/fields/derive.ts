import type { CommitDates } from "../source/git.ts";
import type { ParsedFile, Warning } from "../source/parsed_file.ts";
import { ownFolderOf } from "../source/select.ts";
import { formatDay, parseDate } from "../util/dates.ts";
import { shortHash } from "../util/hash.ts";
import { stem } from "../util/path.ts";
import { slugify } from "../util/slugify.ts";
import { readAttrs } from "./attrs.ts";
import { ANONYMOUS, type NameSlug, parseAuthors, parseTags } from "./names.ts";
import { fieldText } from "../text/field_text.ts";
import { summarizeText } from "../text/summary.ts";
import { describeProse } from "./preview.ts";
import { readingTime } from "./reading_time.ts";
import type { DateInputs } from "./dated.ts";
import { deriveVisibility } from "./visibility.ts";

/**
 * The fields of an item that depend on its file alone (SPEC 4). Fields that
 * need the tree (`uri`, `id`, `category`, academy time sums, inherited
 * drafts, tag counts) are added when the index is built.
 */
export interface FileFields {
  /** The item's own URI segment. */
  readonly slug: string;
  /** Front matter `title`, else the file name (SPEC 4). */
  readonly title: string;
  /** Front matter `description` or `summary`, else a preview of the body. */
  readonly description: string;
  /** Front matter `image` as written (made absolute at render time), or `null`. */
  readonly image: string | null;
  /** Front matter `authors` (or `author`); Anonymous when none. */
  readonly authors: readonly NameSlug[];
  /** Front matter `tags`, duplicates by slug dropped. */
  readonly tags: readonly NameSlug[];
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** Epoch ms of `date`, for ordering (newest first). */
  readonly dateMs: number;
  /** `YYYY-MM-DD`. */
  readonly lastUpdate: string;
  /** Reading minutes of this file's own body (or its front matter `time`). */
  readonly time: number;
  /** Whether `time` came from front matter (academy sums do not override it then). */
  readonly timeSet: boolean;
  /** Front matter `draft`; a value that is not a boolean counts as true. */
  readonly draft: boolean;
  /** Front matter `indexable`/`searchable` when boolean, else the SPEC 4 default. */
  readonly indexable: boolean;
  /** Front matter `searchable` when boolean, else the SPEC 4 default. */
  readonly searchable: boolean;
  /** `sidebar_position`, else `order`, `weight` (Hugo) or `nav_order` (Jekyll), when a finite number. */
  readonly position: number | undefined;
  /** Front matter `permalink`: an absolute URL, or a root-relative path (SPEC 4 `url`). */
  readonly permalink: string | undefined;
  /** Whether the body is not empty (an empty one keeps the item out of the feed, SPEC 5). */
  readonly hasBody: boolean;
  /**
   * Why the item is not indexable, when it is not (the `check` command's
   * reasons, SPEC 15): the front matter said so, it is a draft, unlisted
   * or deprecated, or its body is empty or under 100 characters.
   */
  readonly unindexed?: NotIndexable;
  /**
   * Where its generator publishes it (SPEC 16.2), when the plugin has one
   * (`fields/page.ts`); absent: SPEC 4's rule (`plain`).
   */
  readonly page?: { readonly path: string; readonly from: "route" | "site" } | {
    readonly url: string;
  };
  /** Not a page of the site: a partial of its generator, or a page it does not publish (SPEC 16.4). */
  readonly notPage?: "partial" | "not a page";
}

/** Why an item is not indexable (SPEC 4 `indexable`). */
export type NotIndexable =
  | "indexable: false"
  | "draft"
  | "unlisted"
  | "deprecated"
  | "empty body"
  | "short body";

const DATE_PREFIX = /^(\d{4}-\d{2}-\d{2})-/;

/** What deriving a file may know besides the file (SPEC 4). */
export interface DeriveContext {
  /** Author keys and the names they stand for (the plugin's `authors` file). */
  readonly authorNames?: ReadonlyMap<string, string>;
  /** The file's commit dates, when the content is in a git work tree. */
  readonly git?: CommitDates;
  /** The plugin's generator (SPEC 16), where it has one: its `slug` may be a URL path. */
  readonly generator?: { readonly name: string };
}

/**
 * Order keys in precedence (SPEC 4 `order`): Docusaurus, generic, Hugo,
 * Jekyll themes, then Starlight's `sidebar.order` (read as `sidebar.order`).
 */
const ORDER_KEYS = ["sidebar_position", "order", "weight", "nav_order", "sidebar.order"];
/**
 * Last-update keys in precedence (SPEC 4 `last_update`), then Starlight's
 * `lastUpdated`, then `last_modified_at` (Jekyll's plugin of that name).
 * Docusaurus's `last_update: { date }` is read as its date.
 */
const UPDATED_KEYS = ["last_update", "lastmod", "updated", "lastUpdated", "last_modified_at"];

/**
 * Derives a {@link FileFields} from a parsed file. A value of the wrong type
 * or an unparsable date falls back to its default and adds a warning naming
 * the file and the key; the item is never lost for it.
 *
 * @param shown the path printed in warnings
 *
 * @example
 * ```ts
 * import { deriveFields } from "./derive.ts";
 * const warnings: { file: string; message: string }[] = [];
 * const fields = deriveFields({
 *   plugin: "blog", path: "2026-03-14-hello.md", checksum: "", mtime: 0,
 *   attrs: { title: "Hello", tags: ["Deno"] }, body: "Hi there.",
 * }, "blog/2026-03-14-hello.md", warnings);
 * fields.date; // "2026-03-14"
 * fields.tags; // [{ name: "Deno", slug: "deno" }]
 * ```
 */
export function deriveFields(
  file: ParsedFile,
  shown: string,
  warnings: Warning[],
  context: DeriveContext = {},
): FileFields {
  return deriveFileFields(file, shown, warnings, context).fields;
}

/**
 * {@link deriveFields}, and what its dates were made of ({@link DateInputs}).
 *
 * @example
 * ```ts
 * import { deriveFileFields } from "./derive.ts";
 * const { fields, dates } = deriveFileFields({
 *   plugin: "docs", path: "intro.md", checksum: "", mtime: 1700000000000,
 *   attrs: { title: "Intro" }, body: "Hi there.",
 * }, "docs/intro.md", []);
 * dates.date; // undefined: git's first commit, else the mtime, gives it
 * fields.date; // "2023-11-14"
 * ```
 */
export function deriveFileFields(
  file: ParsedFile,
  shown: string,
  warnings: Warning[],
  context: DeriveContext = {},
): { readonly fields: FileFields; readonly dates: DateInputs } {
  const read = readAttrs(file.attrs, shown, warnings);
  const { attrs, warn, str, text: textOf, date } = read;
  // A folder's own file (x/index.md) takes its name, its slug and its date from the folder (SPEC 3).
  const own = ownFolderOf(file.path);
  const fileName = own === undefined
    ? file.path.slice(file.path.lastIndexOf("/") + 1)
    : own.slice(own.lastIndexOf("/") + 1);
  const fileStem = own === undefined ? stem(fileName) : fileName;

  let slug = "";
  if (attrs.slug != null) {
    const ownSlug = textOf("slug");
    if (ownSlug !== undefined) slug = slugify(ownSlug);
    // Under a generator a slug is a URL path: `slug: /` (Docusaurus' home
    // doc) names no page, and the file name makes the uri without a word.
    const rootPath = ownSlug !== undefined && /^\/+$/.test(ownSlug.trim()) &&
      context.generator !== undefined && context.generator.name !== "plain";
    if (!slug && ownSlug !== undefined && !rootPath) {
      warn("slug", "a string with letters or digits", "the file name");
    }
  }
  if (!slug) slug = slugify(fileStem);
  if (!slug) {
    // A name with no a-z or 0-9 at all (日本語.md): a stable slug from its path, so its link resolves.
    slug = `item-${shortHash(file.path)}`;
    warnings.push({
      file: shown,
      message:
        `file name has no letters a-z or digits to make a slug from; using '${slug}' (set front matter 'slug')`,
    });
  }

  // One reading of the body gives the title fallback, the description and the words.
  const text = summarizeText(file.body, /\.html?$/i.test(file.path));
  // Markup in a front-matter title or description is read as text (SPEC 16.4).
  const title = fieldText(textOf("title")?.trim() ?? "") || text.heading || fileStem;
  // An empty description (templates often leave `description: ""`) falls back, as a title does.
  const description = fieldText(textOf("description")?.trim() ?? "") ||
    fieldText(textOf("summary")?.trim() ?? "") || describeProse(text.prose);

  const image = str("image")?.trim() || null;

  const authorKey = attrs.authors != null ? "authors" : "author";
  let authors: readonly NameSlug[] = ANONYMOUS;
  if (attrs[authorKey] != null) {
    const parsed = parseAuthors(attrs[authorKey], context.authorNames);
    if (parsed.problem) {
      warnings.push({ file: shown, message: `front matter '${authorKey}': ${parsed.problem}` });
    }
    if (parsed.value.length > 0) authors = parsed.value;
  }

  let tags: readonly NameSlug[] = [];
  if (attrs.tags != null) {
    const parsed = parseTags(attrs.tags);
    if (parsed.problem) {
      warnings.push({ file: shown, message: `front matter 'tags': ${parsed.problem}` });
    }
    tags = parsed.value;
  }

  // Whole milliseconds: Deno's mtimes are whole, Node's and Bun's are not,
  // and two files written in the same millisecond must order alike on all three.
  const mtime = Math.floor(file.mtime);
  const dateKey = attrs.date != null ? "date" : "created";
  const prefix = DATE_PREFIX.exec(fileName)?.[1];
  const fixedDate = date(dateKey) ?? (prefix ? parseDate(prefix) : undefined);
  const dateMs = fixedDate ?? context.git?.first ?? mtime;
  const updatedKey = UPDATED_KEYS.find((key) => attrs[key] != null) ?? "last_update";
  const fixedUpdate = date(updatedKey);
  const lastMs = fixedUpdate ?? context.git?.last ?? mtime;

  let time = readingTime(text.words);
  let timeSet = false;
  if (attrs.time != null) {
    const value = attrs.time;
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
      time = value;
      timeSet = true;
    } else warn("time", "a non-negative integer of minutes", "the reading time");
  }

  const { draft, indexable, searchable, unindexed } = deriveVisibility(read, file.body);

  const positionKey = ORDER_KEYS.find((key) => attrs[key] != null);
  let position: number | undefined;
  if (positionKey !== undefined) {
    const value = attrs[positionKey];
    if (typeof value === "number" && Number.isFinite(value)) position = value;
    else warn(positionKey, "a number", "no position");
  }

  let permalink: string | undefined;
  const ownLink = str("permalink")?.trim();
  if (ownLink) {
    if (/^https?:\/\//i.test(ownLink)) permalink = ownLink;
    else if (!/^[a-z][a-z0-9+.-]*:/i.test(ownLink)) {
      permalink = ownLink.startsWith("/") ? ownLink : `/${ownLink}`;
    } else warn("permalink", "an http(s) URL or a path", "the default");
  }

  const fields: FileFields = {
    slug,
    title,
    description,
    image,
    authors,
    tags,
    date: formatDay(dateMs),
    dateMs,
    lastUpdate: formatDay(lastMs),
    time,
    timeSet,
    draft,
    indexable,
    searchable,
    position,
    permalink,
    hasBody: file.body !== "",
    unindexed,
  };
  return { fields, dates: { date: fixedDate, updated: fixedUpdate, mtime } };
}
