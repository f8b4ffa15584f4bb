// Docusaurus 3 (SPEC 16.2): where the docs, blog and pages plugins publish a
// file, in their default configuration. Each branch names the rule of
// @docusaurus/plugin-content-docs, -blog and -pages (3.9) it follows; paths
// are from the plugin's route (and, for docs, the version's prefix).
import { pathParts, textOf, withoutExtension } from "./names.ts";
import { nonPathTarget, problem } from "./targets.ts";
import type { GeneratorRules, GeneratorSetup, PageInput, PagePath } from "./types.ts";

/**
 * The number prefix a docs file or folder name loses (numberPrefix.ts,
 * `DefaultNumberPrefixParser`): digits, then `-`, `_` or `.` (spaces around
 * them allowed), then a name; a version or date-like start (`7.0-x`,
 * `2021-11-x`) is no prefix.
 */
const NUMBER_PREFIX = /^\d+\s*[-_.]+\s*([^-_.\s].*)$/;
const NOT_A_PREFIX = /^\d+[-_.]\d+/;

/**
 * A docs file or folder name without its number prefix (`01-intro` →
 * `intro`), as Docusaurus strips it by default.
 *
 * @example
 * ```ts
 * import { stripNumberPrefix } from "./docusaurus.ts";
 * stripNumberPrefix("02-guides"); // "guides"
 * stripNumberPrefix("7.0-release"); // "7.0-release"
 * ```
 */
export function stripNumberPrefix(name: string): string {
  if (NOT_A_PREFIX.test(name)) return name;
  return NUMBER_PREFIX.exec(name)?.[1] ?? name;
}

/**
 * The `resolve-pathname` algorithm Docusaurus resolves a relative docs slug
 * with: `to` against the folder URL `from` (ending in `/`); `..` beyond the
 * root stops at it, as Docusaurus' own tests show (`rootTryToEscapeSlug`).
 *
 * @example
 * ```ts
 * import { resolvePathname } from "./docusaurus.ts";
 * resolvePathname("hey/resolved", "/slugs/"); // "/slugs/hey/resolved"
 * resolvePathname("../../../x", "/slugs/"); // "/x"
 * ```
 */
export function resolvePathname(to: string, from: string): string {
  const parts = from.split("/");
  parts.pop();
  parts.push(...to.split("/"));
  const last = parts[parts.length - 1];
  const trailing = last === "." || last === ".." || last === "";
  const out: string[] = [];
  for (const part of parts) {
    if (part === "..") out.pop();
    else if (part !== "." && part !== "") out.push(part);
  }
  const path = `/${out.join("/")}`;
  return trailing && path !== "/" ? `${path}/` : path;
}

/**
 * Whether a docs file is its folder's index (docs.ts `isCategoryIndex`): its
 * name without extension, number prefix included, is `index`, `readme` or
 * its folder's name, whatever the case.
 */
function isCategoryIndex(stem: string, dirs: readonly string[]): boolean {
  const name = stem.toLowerCase();
  return name === "index" || name === "readme" ||
    (dirs.length > 0 && name === dirs[dirs.length - 1].toLowerCase());
}

/** Docs (docs.ts `processDocMetadata`, slug.ts `getSlug`). */
function docPage(input: PageInput, setup: GeneratorSetup): PagePath {
  const { dirs, file } = pathParts(input.path);
  const stem = withoutExtension(file);
  // `parse_number_prefixes: false` in front matter keeps the prefixes.
  const strip = input.attrs.parse_number_prefixes !== false;
  const unprefixed = strip ? stripNumberPrefix(stem) : stem;
  // The folder URL: the folders with their number prefixes stripped, from the
  // version's root, ending in `/`.
  const folder = dirs.length === 0
    ? "/"
    : `/${(strip ? dirs.map(stripNumberPrefix) : dirs).join("/")}/`;
  const byName = isCategoryIndex(stem, dirs) ? folder : resolvePathname(unprefixed, folder);
  const fileFallback: PagePath = { path: byName, from: "route" };

  // `id` replaces the file name (never a category index's folder URL).
  const id = textOf(input.attrs.id);
  let fallback = fileFallback;
  if (id !== undefined && !isCategoryIndex(stem, dirs)) {
    if (id.includes("/")) {
      return problem("id", id, "holds a slash, which Docusaurus rejects", fileFallback);
    }
    fallback = { path: resolvePathname(id, folder), from: "route" };
  }

  const slug = textOf(input.attrs.slug);
  if (slug === undefined) return fallback;
  const other = nonPathTarget("slug", slug, setup.data.siteUrl, false, fallback);
  if (other) return other;
  // An absolute slug is a path from the version's root, kept as written;
  // Docusaurus refuses one that `new URL` would change (`/a/../b`).
  if (slug.startsWith("/")) {
    return /(^|\/)\.{1,2}(\/|$)/.test(slug)
      ? problem("slug", slug, "is not a valid path (Docusaurus rejects it)", fallback)
      : { path: slug.replace(/\/{2,}/g, "/"), from: "route" };
  }
  // A relative slug resolves against the folder URL.
  return { path: resolvePathname(slug, folder), from: "route" };
}

/**
 * A blog file name's date (blogUtils.ts `DATE_FILENAME_REGEX`, from where the
 * folder part ends): `YYYY-MM-DD` (or `YYYY/MM/DD`), the rest of the name; a
 * folder post's `/index.md` is its folder.
 */
const BLOG_DATE = /^(?<date>\d{4}[-/]\d{1,2}[-/]\d{1,2})[-/]?(?<text>.*?)(?:\/index)?\.[^./]+$/;

/** Blog posts (blogUtils.ts `parseBlogFileName`, `processBlogSourceFile`). */
function blogPage(input: PageInput, setup: GeneratorSetup): PagePath {
  const path = input.path.split("/").filter(Boolean).join("/");
  const dated = greedyFolder(path);
  const byName = dated
    ? `/${dated.date.replace(/-/g, "/")}/${dated.folder}${dated.text}`
    : `/${path.replace(/(?:\/index)?\.[^./]+$/, "")}`;
  const fallback: PagePath = { path: byName, from: "route" };
  const slug = textOf(input.attrs.slug);
  if (slug === undefined) return fallback;
  const other = nonPathTarget("slug", slug, setup.data.siteUrl, false, fallback);
  if (other) return other;
  // normalizeUrl([route, slug]): relative or absolute, the slug is a path from the blog's route.
  const joined = `/${slug}`.replace(/\/{2,}/g, "/");
  if (/(^|\/)\.\.(\/|$)/.test(joined)) {
    return problem("slug", slug, "climbs out of the blog's route", fallback);
  }
  return { path: joined, from: "route" };
}

/** The date match of a blog path with the folder part as long as it can be (the regex's greedy `.*`). */
function greedyFolder(path: string): { folder: string; date: string; text: string } | undefined {
  // Try the last date-like start first, so the folder part is the longest, as `.*` would make it.
  const starts = [...path.matchAll(/\d{4}[-/]\d{1,2}[-/]\d{1,2}/g)].map((m) => m.index!).reverse();
  for (const start of starts) {
    const m = BLOG_DATE.exec(path.slice(start));
    if (m?.groups) {
      return { folder: path.slice(0, start), date: m.groups.date, text: m.groups.text };
    }
  }
  return undefined;
}

/** Pages (`fileToPath`): the path; `index` (any case) is its folder's URL. */
function pagesPage(input: PageInput): PagePath {
  const { dirs, file } = pathParts(input.path);
  const stem = withoutExtension(file);
  const folder = dirs.length === 0 ? "/" : `/${dirs.join("/")}/`;
  return { path: stem.toLowerCase() === "index" ? folder : `${folder}${stem}`, from: "route" };
}

/** Docusaurus 3: docs, blog and pages. */
export const docusaurus: GeneratorRules = {
  page(input, setup) {
    if (setup.type === "blog") return blogPage(input, setup);
    if (setup.type === "pages") return pagesPage(input);
    return docPage(input, setup);
  },
  // The plugins' default `exclude`: `**/_*.{md,mdx,…}` and `**/_*/**` are
  // partials (imported, never pages); globby skips dot files.
  isPartial(path) {
    return path.split("/").some((segment) => segment.startsWith("_") || segment.startsWith("."));
  },
};
