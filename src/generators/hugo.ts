// Hugo (SPEC 16.2), from gohugo.io "URL management" and "Configure
// permalinks" and hugolib's target paths: `url` front matter (not sanitized; a
// path from the site's root, or without a leading slash from the language's);
// else the section's `permalinks` pattern; else the file's path with `slug`
// replacing its last segment. `_index.md` is its section's list page and a
// bundle's `index.md` its folder's page; pages end in `/` (`.html` with
// `uglyURLs`); the path is sanitized (spaces to `-`; dots and underscores
// kept) and lower-cased unless `disablePathToLower`. `name.<lang>.md` is the
// page in that language. Paths are from the plugin's route and language prefix.
// A page whose own `build` options say it is not rendered is not a page.
import { isMap } from "./data_text.ts";
import { dateParts } from "./date_parts.ts";
import {
  expandHugoPattern,
  hugoPath,
  hugoPatternProblem,
  hugoSanitize,
  type HugoTokenPage,
} from "./hugo_permalinks.ts";
import { isDotName, pathParts, textOf, withoutExtension, withoutLang } from "./names.ts";
import { cleanPath, climbsAbove, nonPathTarget, problem } from "./targets.ts";
import type { GeneratorRules, HugoData, HugoPermalinkRule, PageInput, PagePath } from "./types.ts";

/** Hugo's defaults when the site has no config the feed can read. */
export const HUGO_DEFAULTS: HugoData = {
  contentDir: "content",
  defaultContentLanguage: "en",
  defaultContentLanguageInSubdir: false,
  languages: [],
  permalinks: [],
  uglyURLs: false,
  disablePathToLower: false,
  removePathAccents: false,
  contentMounts: [],
};

/** Whether a rule's section (`sectionToPathGlob`: `/{s,s/**}`, or `/*` for the root) holds a page's path. */
function inSection(section: string, path: string): boolean {
  if (section === "") return path.split("/").filter(Boolean).length === 1;
  return path === `/${section}` || path.startsWith(`/${section}/`);
}

/** The rule for a page: its language's rules first, then the site's; the most specific section wins. */
function ruleFor(
  hugo: HugoData,
  lang: string | undefined,
  kind: "page" | "section",
  path: string,
): HugoPermalinkRule | undefined {
  const own = lang
    ? hugo.languages.find((language) => language.code.toLowerCase() === lang.toLowerCase())
    : undefined;
  for (const rules of [own?.permalinks ?? [], hugo.permalinks]) {
    let best: HugoPermalinkRule | undefined;
    for (const rule of rules) {
      if (rule.kind !== kind || !inSection(rule.section, path)) continue;
      if (!best || rule.section.length > best.section.length) best = rule;
    }
    if (best) return best;
  }
  return undefined;
}

/** `uglyURLs` for a page's top-level section (`IsUglyURLs(p.Section())`). */
function isUgly(hugo: HugoData, section: string): boolean {
  const ugly = hugo.uglyURLs;
  if (typeof ugly === "boolean") return ugly;
  const key = section.toLowerCase();
  return Object.hasOwn(ugly, key) && ugly[key];
}

/** A language's prefix for a `url` without a leading slash (multilingual sites only). */
function languagePrefix(hugo: HugoData, lang: string | undefined): string {
  if (!lang || hugo.languages.length === 0) return "";
  const isDefault = lang.toLowerCase() === hugo.defaultContentLanguage.toLowerCase();
  return isDefault && !hugo.defaultContentLanguageInSubdir ? "" : `/${lang.toLowerCase()}`;
}

/** Go's `url.QueryUnescape` of an expanded pattern, leniently. */
function unescape(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The page a `url` front matter gives (CreateTargetPaths' `d.URL` branch). */
function urlPage(
  url: string,
  input: PageInput,
  page: HugoTokenPage,
  hugo: HugoData,
  siteUrl: string | undefined,
  fallback: PagePath,
): PagePath {
  const other = nonPathTarget("url", url, siteUrl, true, fallback);
  if (other) return other;
  const unknown = hugoPatternProblem(url);
  if (unknown) return problem("url", url, `holds ${unknown}, a token Hugo does not know`, fallback);
  const expanded = url.includes(":") ? unescape(expandHugoPattern(url, page, hugo)) : url;
  if (climbsAbove(expanded.replace(/^\/+/, ""))) {
    return problem("url", url, "climbs above the site's root", fallback);
  }
  // Without a dot it is a folder: `/about` is published at `/about/`.
  let path = cleanPath(expanded);
  if (!expanded.includes(".") && !path.endsWith("/")) path += "/";
  const relative = !expanded.startsWith("/");
  return { path: relative ? languagePrefix(hugo, input.lang) + path : path, from: "site" };
}

/**
 * Whether the page's own build options keep Hugo from writing it
 * (gohugo.io "Build options"): `build.render` `never`, or `link` (a
 * permalink, no file); `false`, the older spelling, and the older `_build`
 * key alike; `headless: true`, the older form of a headless bundle.
 */
function notRendered(attrs: Readonly<Record<string, unknown>>): boolean {
  if (attrs.headless === true) return true;
  const build = isMap(attrs.build) ? attrs.build : isMap(attrs._build) ? attrs._build : undefined;
  const render = build?.render;
  return render === false || render === "never" || render === "link" || render === "false";
}

/** Hugo. */
export const hugo: GeneratorRules = {
  page(input, setup) {
    if (notRendered(input.attrs)) return { notPage: true };
    const site = setup.data.hugo ?? HUGO_DEFAULTS;
    const { dirs, file } = pathParts(input.path);
    const stem = withoutLang(withoutExtension(file), input.lang);
    const bundle = stem === "index" && dirs.length > 0;
    const kind = stem === "_index" || stem === "index"
      ? (dirs.length === 0 ? "home" : bundle ? "page" : "section")
      : "page";
    // A page's current section holds it (a bundle's, its folder's parent); a section is its own.
    const sections = bundle ? dirs.slice(0, -1) : dirs;
    const baseName = kind === "page" && !bundle ? stem : dirs[dirs.length - 1] ?? "";
    // `slug` replaces a regular page's last segment (not a section's or the
    // home page's); a pattern's `:slug` reads it on any page.
    const slug = textOf(input.attrs.slug);
    const tokens: HugoTokenPage = {
      kind,
      sections,
      fileName: stem,
      baseName,
      folderName: dirs[dirs.length - 1] ?? "",
      slug,
      title: input.title,
      date: dateParts(input),
    };
    const ugly = isUgly(site, (kind === "page" ? sections : dirs)[0] ?? "");
    const end = ugly ? ".html" : "/";
    let path = "/";
    if (kind !== "home") {
      const own = kind === "page" ? [...sections, baseName] : dirs;
      const rule = ruleFor(site, input.lang, kind, hugoSanitize(`/${own.join("/")}`).toLowerCase());
      if (rule) {
        // The expanded pattern is cleaned (`path.Clean`), then ends like any page.
        const expanded = cleanPath(unescape(expandHugoPattern(rule.pattern, tokens, site)));
        path = expanded === "/" ? "/" : expanded.replace(/\/$/, "") + end;
      } else {
        const last = kind === "page" ? [...sections, slug ?? baseName] : dirs;
        path = `/${last.join("/")}${end}`;
      }
    }
    const fallback: PagePath = {
      path: hugoPath(path, site).replace(/\/{2,}/g, "/"),
      from: "route",
    };
    const url = textOf(input.attrs.url);
    if (url === undefined || kind === "home") return fallback;
    return urlPage(url, input, tokens, site, setup.data.siteUrl, fallback);
  },
  // `_index.*` is a section's page; other `_`-prefixed names stay out as SPEC 3
  // has it (Hugo's own docs do not name them); dot files are never content.
  isPartial(path) {
    return path.split("/").filter(Boolean).some((segment) =>
      isDotName(segment) ||
      (segment.startsWith("_") && !/^_index(\.[^.]+)?$/.test(withoutExtension(segment)))
    );
  },
};
