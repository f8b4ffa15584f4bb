// MkDocs' `mkdocs.yml` as MkDocsData (mkdocs.org/user-guide/configuration:
// `docs_dir`, `use_directory_urls`, `nav`, `exclude_docs`, `draft_docs`; mkdocs-static-i18n's `i18n`
// plugin: `docs_structure`, `languages`).
import { isMap } from "./data_text.ts";
import type { MkDocsData, MkDocsLanguage, SiteDataWarning } from "./types.ts";

/** MkDocs' defaults when the site has no `mkdocs.yml` the feed can read. */
export const MKDOCS_DEFAULTS: MkDocsData = {
  docsDir: "docs",
  useDirectoryUrls: true,
  navTitles: {},
  i18n: undefined,
};

/**
 * The titles a `nav` gives pages: each `Title: path.md` entry, in sections
 * at any depth; external links (`Title: https://…`) and untitled entries
 * (`- path.md`) give none; a page named twice keeps its first title.
 *
 * @example
 * ```ts
 * import { navTitles } from "./mkdocs_config.ts";
 * navTitles([{ Home: "index.md" }, { Guide: [{ Intro: "guide/intro.md" }, "guide/more.md"] }]);
 * // { "index.md": "Home", "guide/intro.md": "Intro" }
 * ```
 */
export function navTitles(nav: unknown): Record<string, string> {
  const titles = new Map<string, string>();
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isMap(item)) continue;
      for (const [title, value] of Object.entries(item)) {
        if (Array.isArray(value)) walk(value);
        else if (typeof value === "string" && !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value)) {
          const path = value.trim().replace(/^\.\//, "").replace(/^\/+/, "");
          if (!titles.has(path)) titles.set(path, title);
        }
      }
    }
  };
  walk(nav);
  return Object.fromEntries(titles);
}

/** The lines of a gitignore-style setting (`exclude_docs: |` a block of lines; a list is read alike). */
function linesOf(value: unknown): string[] {
  if (typeof value === "string") return value.split(/\r?\n/);
  return Array.isArray(value) ? value.filter((line) => typeof line === "string") : [];
}

/** The mkdocs-static-i18n plugin's settings, when `plugins` lists it. */
function i18nOf(plugins: unknown): MkDocsData["i18n"] {
  const entries = Array.isArray(plugins)
    ? plugins
    : isMap(plugins)
    ? Object.entries(plugins).map(([name, options]) => ({ [name]: options }))
    : [];
  for (const entry of entries) {
    const options = isMap(entry) ? entry.i18n : undefined;
    if (entry !== "i18n" && options === undefined) continue;
    const settings = isMap(options) ? options : {};
    const languages: MkDocsLanguage[] =
      (Array.isArray(settings.languages) ? settings.languages : [])
        .filter((language) => isMap(language) && typeof language.locale === "string")
        .map((language) => ({
          locale: language.locale as string,
          default: language.default === true,
        }));
    return { structure: settings.docs_structure === "folder" ? "folder" : "suffix", languages };
  }
  return undefined;
}

/**
 * `mkdocs.yml`'s value as MkDocsData, each key at MkDocs' default when
 * absent or of the wrong type (with a warning).
 *
 * @example
 * ```ts
 * import { mkdocsDataOf } from "./mkdocs_config.ts";
 * mkdocsDataOf({ use_directory_urls: false, nav: [{ Home: "index.md" }] }, "mkdocs.yml", []).useDirectoryUrls; // false
 * ```
 */
export function mkdocsDataOf(
  config: unknown,
  file: string,
  warnings: SiteDataWarning[],
): MkDocsData {
  if (!isMap(config)) return MKDOCS_DEFAULTS;
  const useDirectoryUrls = config.use_directory_urls;
  if (
    useDirectoryUrls !== undefined && useDirectoryUrls !== null &&
    typeof useDirectoryUrls !== "boolean"
  ) {
    warnings.push({
      file,
      message: "use_directory_urls: expected true or false; MkDocs' default (true) applies",
    });
  }
  const docsDir = config.docs_dir;
  return {
    docsDir: typeof docsDir === "string" && docsDir.trim() !== ""
      ? docsDir.replace(/^\.\//, "").replace(/\/+$/, "")
      : MKDOCS_DEFAULTS.docsDir,
    useDirectoryUrls: typeof useDirectoryUrls === "boolean" ? useDirectoryUrls : true,
    navTitles: navTitles(config.nav),
    excludeDocs: [...linesOf(config.exclude_docs), ...linesOf(config.draft_docs)],
    i18n: i18nOf(config.plugins),
  };
}
