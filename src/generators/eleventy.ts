// Eleventy (SPEC 16.2), from its Permalinks and "Eleventy Supplied Data"
// pages and TemplateFileSlug.js: `permalink` from front matter (its
// `eleventyComputed.permalink` first), else from the
// template's data file, else from the nearest directory data file (JSON only:
// JavaScript data files are never run); a string with `{{ page.fileSlug }}`
// and `{{ page.filePathStem }}` filled in, a path from the root of the site;
// `false`: not a page. Without one, directory URLs from the plugin's route:
// `a/b.md` → `/a/b/`, `a/index.md` and `a/a.md` → `/a/`.
import { slugify } from "../util/slugify.ts";
import { isMap } from "./data_text.ts";
import { dateParts, MONTHS, pad, yearDay } from "./date_parts.ts";
import { isDotName, pathParts, withoutExtension } from "./names.ts";
import { cleanPath, climbsAbove, nonPathTarget, problem } from "./targets.ts";
import type { EleventyData, GeneratorRules, PageInput, PagePath } from "./types.ts";

/** TemplateFileSlug `_stripDateFromSlug`: the text after the first `YYYY-MM-DD-`, wherever it is. */
function stripDate(name: string): string {
  return /\d{4}-\d{2}-\d{2}-(.*)/.exec(name)?.[1] ?? name;
}

/**
 * `page.fileSlug` and `page.filePathStem` (TemplateFileSlug.js): the name
 * without extension and without a date prefix (for `index`, its folder's
 * name; `""` at the root), and the path to it from the root.
 *
 * @example
 * ```ts
 * import { eleventyFileSlug } from "./eleventy.ts";
 * eleventyFileSlug("blog/2018-01-01-myFile.md"); // { fileSlug: "myFile", filePathStem: "/blog/myFile" }
 * eleventyFileSlug("blog/index.md"); // { fileSlug: "blog", filePathStem: "/blog/index" }
 * ```
 */
export function eleventyFileSlug(path: string): { fileSlug: string; filePathStem: string } {
  const { dirs, file } = pathParts(path);
  const raw = stripDate(withoutExtension(file));
  const filePathStem = `/${[...dirs, raw].join("/")}`;
  if (raw !== "index") return { fileSlug: raw, filePathStem };
  return { fileSlug: dirs.length === 0 ? "" : stripDate(dirs[dirs.length - 1]), filePathStem };
}

/** Eleventy's `slugify` filter (@sindresorhus/slugify): camelCase split, `&` as `and`, accents out. */
function slugifyFilter(text: string): string {
  return slugify(
    text.replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2").replace(/&/g, " and ").replace(/[@%]/g, " "),
  );
}

/** A Liquid `date` format of the common strftime letters. */
function strftime(format: string, input: PageInput): string {
  const d = dateParts(input);
  const letters: Record<string, string> = {
    Y: String(d.year),
    y: pad(d.year % 100, 2),
    m: pad(d.month, 2),
    d: pad(d.day, 2),
    e: String(d.day),
    j: pad(yearDay(d), 3),
    B: MONTHS[d.month - 1],
    b: MONTHS[d.month - 1].slice(0, 3),
    H: pad(d.hour, 2),
    M: pad(d.minute, 2),
    S: pad(d.second, 2),
  };
  return format.replace(/%-?([A-Za-z%])/g, (all, letter: string) => {
    if (letter === "%") return "%";
    const value = letters[letter];
    if (value === undefined) throw new SyntaxError(all);
    return all.startsWith("%-") ? String(Number(value) || value) : value;
  });
}

/** One `{{ … }}` expression of a permalink: a variable and filters; `undefined` when the feed cannot run it. */
function evaluate(expression: string, input: PageInput): string | undefined {
  const [head, ...filters] = expression.split("|").map((part) => part.trim());
  const { fileSlug, filePathStem } = eleventyFileSlug(input.path);
  const values: Record<string, string> = {
    "page.fileSlug": fileSlug,
    "page.filePathStem": filePathStem,
    title: input.title,
    "page.date": input.date,
  };
  if (!Object.hasOwn(values, head)) return undefined;
  let value = values[head];
  for (const filter of filters) {
    const date = /^date\s*(?::\s*|\(\s*)(["'])(.*)\1\s*\)?$/.exec(filter);
    if (date && head === "page.date") {
      try {
        value = strftime(date[2], input);
      } catch {
        return undefined;
      }
    } else if (filter === "slugify") value = slugifyFilter(value);
    else if (filter === "slug") value = slugify(value);
    else if (filter === "url" || filter === "safe") continue;
    else return undefined;
  }
  return value;
}

/** The path without a permalink: directory URLs, `index` and a file named like its folder at the folder. */
function defaultPath(path: string): PagePath {
  const { dirs, file } = pathParts(path);
  const stem = withoutExtension(file);
  const folder = dirs.length === 0 ? "/" : `/${dirs.join("/")}/`;
  const isFolder = stem === "index" || (dirs.length > 0 && stem === dirs[dirs.length - 1]);
  return { path: isFolder ? folder : `${folder}${stem}/`, from: "route" };
}

/** The permalink the data files give a template: its own data file, else the nearest folder's. */
function dataPermalink(data: EleventyData | undefined, path: string): unknown {
  if (!data) return undefined;
  const { dirs, file } = pathParts(path);
  const template = [...dirs, withoutExtension(file)].join("/");
  if (Object.hasOwn(data.templates, template)) return data.templates[template];
  for (let depth = dirs.length; depth > 0; depth--) {
    const folder = dirs.slice(0, depth).join("/");
    if (Object.hasOwn(data.folders, folder)) return data.folders[folder];
  }
  return undefined;
}

/** Eleventy. */
export const eleventy: GeneratorRules = {
  page(input, setup) {
    const fallback = defaultPath(input.path);
    // Computed data (11ty.dev/docs/data-computed) comes last in the cascade:
    // front matter `eleventyComputed.permalink` wins over a plain `permalink`.
    const computed = isMap(input.attrs.eleventyComputed) &&
        Object.hasOwn(input.attrs.eleventyComputed, "permalink")
      ? input.attrs.eleventyComputed
      : undefined;
    const value = computed
      ? computed.permalink
      : Object.hasOwn(input.attrs, "permalink")
      ? input.attrs.permalink
      : dataPermalink(setup.data.eleventy, input.path);
    if (value === false) return { notPage: true };
    if (value === undefined || value === null || value === true) return fallback;
    if (typeof value === "string" && value.trim() === "") return fallback;
    if (typeof value !== "string") {
      return problem("permalink", value, "is not a string or false", fallback);
    }
    let unknown = false;
    const filled = value.replace(/\{%[\s\S]*?%\}/g, () => {
      unknown = true;
      return "";
    }).replace(/\{\{([\s\S]*?)\}\}/g, (_, expression: string) => {
      const result = evaluate(expression.trim(), input);
      if (result === undefined) unknown = true;
      return result ?? "";
    });
    if (unknown) {
      return problem("permalink", value, "holds template code the feed does not run", fallback);
    }
    const other = nonPathTarget("permalink", filled, setup.data.siteUrl, true, fallback);
    if (other) return other;
    if (climbsAbove(filled.replace(/^\/+/, ""))) {
      return problem("permalink", value, "climbs above the site's root", fallback);
    }
    // The permalink is the output file: `…/index.html` is served as `…/`.
    const path = cleanPath(filled).replace(/(^|\/)index\.html$/, "$1");
    return { path: path || "/", from: "site" };
  },
  // Eleventy's default ignores: dot files, node_modules, its output `_site`,
  // and the `_includes` and `_data` folders of the input folder.
  isPartial(path) {
    const segments = path.split("/").filter(Boolean);
    return segments.some((segment) => isDotName(segment) || segment === "node_modules") ||
      ["_includes", "_data", "_site"].includes(segments[0]);
  },
};
