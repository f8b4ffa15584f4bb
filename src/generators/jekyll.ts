// Jekyll (SPEC 16.2), from jekyllrb.com/docs/permalinks, posts and
// collections, and lib/jekyll (page.rb `url_template`, document.rb,
// collection.rb `url_template`, configuration.rb): a post (a dated file in a
// `_posts` folder) takes front matter `permalink`, else a `defaults:` one,
// else the posts collection's or the site's `permalink` (default `date`:
// `/:categories/:year/:month/:day/:title:output_ext`); a collection's document
// likewise, with `/:collection/:path` by default; a page takes its front
// matter `permalink`, else a `defaults:` one, else its path with the style's
// suffix (`index` its folder's URL). A page's own path is from the root of the site when its
// folder is inside the site folder, else from the plugin's route; a
// permalink, a post's or a document's path is from the root of the site.
import { dateParts } from "./date_parts.ts";
import {
  addPermalinkSuffix,
  fillDocumentTemplate,
  fillPageTemplate,
  type JekyllDocument,
  sanitizeUrl,
  styleToPermalink,
} from "./jekyll_urls.ts";
import { pathParts, textOf, withoutExtension } from "./names.ts";
import { climbsAbove, nonPathTarget, problem } from "./targets.ts";
import type { GeneratorRules, GeneratorSetup, JekyllData, PageInput, PagePath } from "./types.ts";

/** Jekyll's defaults when the site has no `_config.yml` the feed can read. */
export const JEKYLL_DEFAULTS: JekyllData = {
  permalink: "date",
  collections: [{ name: "posts", output: true, permalink: undefined }],
  collectionsDir: "",
  permalinkDefaults: [],
};

/** `Document::DATE_FILENAME_MATCHER`: a post's file name. */
const POST_NAME = /^(\d{2,4}-\d{1,2}-\d{1,2})-(.*)(\.[^.]+)$/;

/** What a file is to Jekyll. */
type Kind =
  | { readonly kind: "page" }
  | { readonly kind: "post"; readonly categories: readonly string[]; readonly inner: string }
  | { readonly kind: "document"; readonly collection: string; readonly inner: string };

/** A file's kind, from its path (and the plugin's type when its folder is a collection's). */
function kindOf(path: string, setup: GeneratorSetup, site: JekyllData): Kind {
  let segments = path.split("/").filter(Boolean);
  const dir = site.collectionsDir.split("/").filter(Boolean);
  const inDir = dir.length > 0 && dir.every((part, i) => segments[i] === part);
  if (inDir) segments = segments.slice(dir.length);
  // `_posts` folders anywhere; the folders above one are the post's categories.
  const posts = segments.indexOf("_posts");
  if (posts >= 0) {
    return {
      kind: "post",
      categories: segments.slice(0, posts),
      inner: segments.slice(posts + 1).join("/"),
    };
  }
  const first = segments[0] ?? "";
  const labelled = site.collections.find((c) => `_${c.name}` === first);
  if (labelled) {
    return { kind: "document", collection: labelled.name, inner: segments.slice(1).join("/") };
  }
  // A plugin whose folder is `_posts` (type blog) or a collection's own folder.
  if (setup.type === "blog") return { kind: "post", categories: [], inner: segments.join("/") };
  if (site.collections.some((c) => c.name === setup.type && c.name !== "posts")) {
    return { kind: "document", collection: setup.type, inner: segments.join("/") };
  }
  return { kind: "page" };
}

/** Front matter `categories` (a list, or a string of space-separated names) and `category`. */
function categoriesOf(attrs: Readonly<Record<string, unknown>>): string[] {
  const names = (value: unknown): string[] =>
    typeof value === "string"
      ? value.split(/\s+/).filter(Boolean)
      : Array.isArray(value)
      ? value.map((v) => String(v))
      : typeof value === "number"
      ? [String(value)]
      : [];
  return [...names(attrs.categories), ...names(attrs.category)];
}

/** A `defaults:` permalink for a document: the longest matching path, a typed scope over an untyped one. */
function defaultPermalink(site: JekyllData, path: string, type: string): string | undefined {
  let best: { score: number; permalink: string } | undefined;
  for (const entry of site.permalinkDefaults) {
    const prefix = entry.path.replace(/^\/+|\/+$/g, "");
    if (prefix !== "" && path !== prefix && !path.startsWith(`${prefix}/`)) continue;
    if (entry.type !== undefined && entry.type !== type) continue;
    const score = prefix.length * 2 + (entry.type === undefined ? 0 : 1);
    if (!best || score >= best.score) best = { score, permalink: entry.permalink };
  }
  return best?.permalink;
}

/**
 * The URL of a filled template (`undefined`: a placeholder Jekyll does not
 * know), or a problem naming where the pattern came from (`key`).
 */
function urlOf(
  filled: string | undefined,
  key: string,
  pattern: string,
  fallback: () => PagePath,
): PagePath {
  if (filled === undefined) {
    return problem(key, pattern, "holds a placeholder Jekyll does not know", fallback());
  }
  if (climbsAbove(filled.replace(/^\/+/, ""))) {
    return problem(key, pattern, "climbs above the site's root", fallback());
  }
  return { path: sanitizeUrl(filled), from: "site" };
}

/** A post's or a collection's document. */
function documentPage(
  input: PageInput,
  setup: GeneratorSetup,
  site: JekyllData,
  kind: Exclude<Kind, { kind: "page" }>,
): PagePath {
  const collection = kind.kind === "post" ? "posts" : kind.collection;
  const config = site.collections.find((c) => c.name === collection);
  if (kind.kind === "document" && !config?.output) return { notPage: true };
  const { file } = pathParts(kind.inner);
  const basename = withoutExtension(file).replace(/\.+$/, "");
  const dated = POST_NAME.exec(file);
  // A post's file name must be dated: Jekyll reads no other file of `_posts`.
  if (kind.kind === "post" && !dated) return { notPage: true };
  const doc: JekyllDocument = {
    collection,
    path: `/${withoutExtension(kind.inner).replace(/\.+$/, "")}`,
    basename,
    slug: textOf(input.attrs.slug) ?? (dated ? dated[2].replace(/\.+$/, "") : basename),
    categories: kind.kind === "post"
      ? [...kind.categories, ...categoriesOf(input.attrs)]
      : categoriesOf(input.attrs),
    // A post's date is its file name's, unless front matter gives one.
    date: dated && input.attrs.date === undefined
      ? dateParts({ ...input, date: dated[1].replace(/-(\d)(?!\d)/g, "-0$1") })
      : dateParts(input),
  };
  // Jekyll's own default for the document, when a configured pattern fails.
  const builtIn = collection === "posts"
    ? styleToPermalink("date")
    : addPermalinkSuffix("/:collection/:path", "date");
  const byDefault = (): PagePath => ({
    path: sanitizeUrl(fillDocumentTemplate(builtIn, doc)!),
    from: "site",
  });
  const configured = defaultPermalink(site, input.path, collection) ?? config?.permalink ??
    (collection === "posts"
      ? styleToPermalink(site.permalink)
      : addPermalinkSuffix("/:collection/:path", site.permalink));
  const fallback = () =>
    urlOf(fillDocumentTemplate(configured, doc), "_config.yml permalink", configured, byDefault);
  const own = frontMatterPermalink(input, setup, fallback);
  if (own === undefined) return fallback();
  if (typeof own !== "string") return own;
  return urlOf(fillDocumentTemplate(own, doc), "permalink", own, fallback);
}

/** Front matter `permalink`: `undefined` when absent, a page path when it is not a path, else the pattern. */
function frontMatterPermalink(
  input: PageInput,
  setup: GeneratorSetup,
  fallback: () => PagePath,
): string | PagePath | undefined {
  const permalink = textOf(input.attrs.permalink);
  if (permalink === undefined) return undefined;
  return nonPathTarget("permalink", permalink, setup.data.siteUrl, true, fallback()) ?? permalink;
}

/** A page (`Page#url_template`, `#url_placeholders`). */
function pagePage(input: PageInput, setup: GeneratorSetup, site: JekyllData): PagePath {
  const { dirs, file } = pathParts(input.path);
  const values = { path: dirs.join("/"), basename: withoutExtension(file).replace(/\.+$/, "") };
  const template = values.basename === "index"
    ? "/:path/"
    : addPermalinkSuffix("/:path/:basename", site.permalink);
  // A page's own path is where the site publishes the plugin's folder plus its
  // path in it: from the plugin's route (`/` for the site's root folder).
  const byPath =
    () => ({ path: sanitizeUrl(fillPageTemplate(template, values)), from: "route" } as const);
  // A `defaults:` permalink scoped to the page's path (and type `pages`) comes before it.
  const configured = defaultPermalink(site, input.path, "pages");
  const fallback = (): PagePath =>
    configured === undefined ? byPath() : urlOf(
      fillPageTemplate(configured, values),
      "_config.yml defaults permalink",
      configured,
      byPath,
    );
  const own = frontMatterPermalink(input, setup, fallback);
  if (own === undefined) return fallback();
  if (typeof own !== "string") return own;
  return urlOf(fillPageTemplate(own, values), "permalink", own, fallback);
}

/** Jekyll. */
export const jekyll: GeneratorRules = {
  page(input, setup) {
    const site = setup.data.jekyll ?? JEKYLL_DEFAULTS;
    // Inside the site folder, a file is where Jekyll sees it: from the site's root.
    const fromSite = input.siteFolder !== undefined
      ? { ...input, path: input.siteFolder ? `${input.siteFolder}/${input.path}` : input.path }
      : input;
    const kind = kindOf(fromSite.path, setup, site);
    if (kind.kind !== "page") return documentPage(fromSite, setup, site, kind);
    const page = pagePage(fromSite, setup, site);
    return input.siteFolder !== undefined && "from" in page && page.from === "route"
      ? { ...page, from: "site" }
      : page;
  },
  // `EntryFilter#special?`: names starting with `_`, `.` or `#`, or ending in
  // `~`, are not pages, but for a collection's folder (`_posts`, `_<label>`)
  // and the files in it; `_drafts` is not published by default.
  isPartial(path, setup) {
    const site = setup.data.jekyll ?? JEKYLL_DEFAULTS;
    const collections = new Set(site.collections.map((c) => `_${c.name}`));
    const dir = site.collectionsDir.split("/").filter(Boolean);
    const segments = path.split("/").filter(Boolean);
    const start = dir.length > 0 && dir.every((part, i) => segments[i] === part) ? dir.length : 0;
    return segments.some((segment, i) =>
      i >= start && /^[_.#]|~$/.test(segment) &&
      !(collections.has(segment) && (i === start || segment === "_posts"))
    );
  },
};
