// Jekyll's URL machinery (lib/jekyll/url.rb, utils.rb, configuration.rb,
// drops/url_drop.rb; jekyllrb.com/docs/permalinks): the built-in permalink
// styles, the suffix a style gives pages, `Utils.slugify`'s modes, filling a
// template's `:placeholders`, and `sanitize_url`.
import { type DateParts, isoWeek, MONTHS, pad, weekday, WEEKDAYS, yearDay } from "./date_parts.ts";

/** `Configuration::STYLE_TO_PERMALINK`: the built-in styles (posts). */
const STYLES: Readonly<Record<string, string>> = {
  date: "/:categories/:year/:month/:day/:title:output_ext",
  pretty: "/:categories/:year/:month/:day/:title/",
  ordinal: "/:categories/:year/:y_day/:title:output_ext",
  weekdate: "/:categories/:year/W:week/:short_day/:title:output_ext",
  none: "/:categories/:title:output_ext",
};

/**
 * A `permalink` setting as a pattern: a style's pattern, or the setting itself.
 *
 * @example
 * ```ts
 * import { styleToPermalink } from "./jekyll_urls.ts";
 * styleToPermalink("pretty"); // "/:categories/:year/:month/:day/:title/"
 * styleToPermalink("/:title/"); // "/:title/"
 * ```
 */
export function styleToPermalink(style: string): string {
  return Object.hasOwn(STYLES, style) ? STYLES[style] : style;
}

/**
 * `Utils.add_permalink_suffix`: what a style adds to a page's template
 * (`pretty`: `/`; `date`, `ordinal`, `none`: `:output_ext`; a pattern: its own
 * trailing `/` or `:output_ext`).
 *
 * @example
 * ```ts
 * import { addPermalinkSuffix } from "./jekyll_urls.ts";
 * addPermalinkSuffix("/:path/:basename", "pretty"); // "/:path/:basename/"
 * addPermalinkSuffix("/:path/:basename", "date"); // "/:path/:basename:output_ext"
 * ```
 */
export function addPermalinkSuffix(template: string, style: string): string {
  if (style === "pretty") return `${template}/`;
  if (style === "date" || style === "ordinal" || style === "none" || style === "weekdate") {
    return `${template}:output_ext`;
  }
  return template + (style.endsWith("/") ? "/" : "") +
    (style.endsWith(":output_ext") ? ":output_ext" : "");
}

/**
 * `Utils.slugify` in its `default` mode (every run of characters but
 * letters, marks and digits is one `-`, lower-cased) or its `pretty` mode
 * (which also keeps `._~!$&'()+,;=@`), with `cased` keeping the case.
 *
 * @example
 * ```ts
 * import { jekyllSlugify } from "./jekyll_urls.ts";
 * jekyllSlugify("The _config.yml file"); // "the-config-yml-file"
 * jekyllSlugify("The _config.yml file", "pretty", true); // "The-_config.yml-file"
 * ```
 */
export function jekyllSlugify(
  text: string,
  mode: "default" | "pretty" = "default",
  cased = false,
): string {
  const runs = mode === "pretty"
    ? /[^\p{M}\p{L}\p{Nd}._~!$&'()+,;=@]+/gu
    : /[^\p{M}\p{L}\p{Nd}]+/gu;
  const slug = text.replace(runs, "-").replace(/^-|-$/g, "");
  return cased ? slug : slug.toLowerCase();
}

/** What a post or a collection's document fills a template with (`Drops::UrlDrop`). */
export interface JekyllDocument {
  readonly collection: string;
  /** `cleaned_relative_path`: the path under the collection's folder, no extension, leading `/`. */
  readonly path: string;
  /** The file name without extension (a post's date included). */
  readonly basename: string;
  /** `data["slug"]`: front matter `slug`, else the name after a post's date. */
  readonly slug: string;
  readonly categories: readonly string[];
  readonly date: DateParts;
}

/** The placeholders of a document, by name. */
function documentPlaceholders(doc: JekyllDocument): Record<string, () => string> {
  const d = doc.date;
  const week = () => isoWeek(d);
  return {
    collection: () => doc.collection,
    path: () => doc.path,
    output_ext: () => ".html",
    name: () => jekyllSlugify(doc.basename),
    title: () => jekyllSlugify(doc.slug, "pretty", true),
    slug: () => jekyllSlugify(doc.slug),
    categories: () => [...new Set(doc.categories.map((c) => c.toLowerCase()))].join("/"),
    slugified_categories: () => [...new Set(doc.categories.map((c) => jekyllSlugify(c)))].join("/"),
    year: () => String(d.year),
    month: () => pad(d.month, 2),
    day: () => pad(d.day, 2),
    hour: () => pad(d.hour, 2),
    minute: () => pad(d.minute, 2),
    second: () => pad(d.second, 2),
    i_day: () => String(d.day),
    i_month: () => String(d.month),
    short_month: () => MONTHS[d.month - 1].slice(0, 3),
    long_month: () => MONTHS[d.month - 1],
    short_year: () => pad(d.year % 100, 2),
    y_day: () => pad(yearDay(d), 3),
    w_year: () => String(week().year),
    week: () => pad(week().week, 2),
    w_day: () => String(weekday(d) === 0 ? 7 : weekday(d)),
    short_day: () => WEEKDAYS[weekday(d)].slice(0, 3),
    long_day: () => WEEKDAYS[weekday(d)],
  };
}

/**
 * A document's template filled (`URL#generate_url_from_drop`): each
 * `:name` (or `:name_` before a letter) replaced; an unknown one is
 * `undefined` (Jekyll stops the build).
 *
 * @example
 * ```ts
 * import { fillDocumentTemplate } from "./jekyll_urls.ts";
 * const date = { year: 2009, month: 4, day: 29, hour: 0, minute: 0, second: 0 };
 * const doc = { collection: "posts", path: "/2009-04-29-slap-chop", basename: "2009-04-29-slap-chop", slug: "slap-chop", categories: ["Blog"], date };
 * fillDocumentTemplate("/:categories/:year/:month/:day/:title:output_ext", doc); // "/blog/2009/04/29/slap-chop.html"
 * ```
 */
export function fillDocumentTemplate(template: string, doc: JekyllDocument): string | undefined {
  const placeholders = documentPlaceholders(doc);
  let unknown = false;
  const filled = template.replace(/:([a-z_]+)/g, (match, name: string) => {
    const pool = name.endsWith("_") ? [name, name.slice(0, -1)] : [name];
    const winner = pool.find((key) => Object.hasOwn(placeholders, key));
    if (winner === undefined) {
      unknown = true;
      return match;
    }
    return placeholders[winner]() + match.slice(winner.length + 1);
  });
  return unknown ? undefined : filled;
}

/**
 * A page's template filled (`URL#generate_url_from_hash`): only `:path`,
 * `:basename` and `:output_ext`; an empty one takes its leading `/` with it;
 * any other `:name` stays as written.
 *
 * @example
 * ```ts
 * import { fillPageTemplate } from "./jekyll_urls.ts";
 * fillPageTemplate("/:path/:basename:output_ext", { path: "docs", basename: "about" }); // "/docs/about.html"
 * ```
 */
export function fillPageTemplate(
  template: string,
  page: { path: string; basename: string },
): string {
  let result = template;
  for (
    const [name, value] of [["path", page.path], ["basename", page.basename], [
      "output_ext",
      ".html",
    ]]
  ) {
    result = value === ""
      ? result.replaceAll(`/:${name}`, "")
      : result.replaceAll(`:${name}`, value);
  }
  return result;
}

/**
 * `URL#sanitize_url`: a leading `/`, every `..` a `/`, `./` removed, runs of
 * `/` squeezed.
 *
 * @example
 * ```ts
 * import { sanitizeUrl } from "./jekyll_urls.ts";
 * sanitizeUrl("//blog//2009/"); // "/blog/2009/"
 * ```
 */
export function sanitizeUrl(url: string): string {
  return `/${url}`.replaceAll("..", "/").replaceAll("./", "").replace(/\/{2,}/g, "/");
}
