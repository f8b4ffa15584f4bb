// MkDocs (SPEC 16.2), from mkdocs/structure/files.py (`File._get_stem`,
// `_get_dest_path`, `_get_url`): the page is its path under `docs_dir`;
// `README` is `index`; with `use_directory_urls` (the default) `a/b.md` is
// `/a/b/` and an index its folder's URL, without it `a/b.html` and
// `a/index.html`. mkdocs-static-i18n's suffix structure (`name.fr.md`) is the
// same page in that locale. Paths are from the plugin's route. What
// `exclude_docs` and `draft_docs` match is not published.
import { gitignoreMatcher } from "./gitignore.ts";
import { isDotName, pathParts, withoutExtension, withoutLang } from "./names.ts";
import type { GeneratorRules, GeneratorSetup } from "./types.ts";

/** The matcher of each site's exclusion lines, compiled once (a site's data is one object for all its files). */
const MATCHERS = new WeakMap<readonly string[], (path: string) => boolean>();

/** The compiled matcher of a site's `exclude_docs` and `draft_docs` lines. */
function excludedBy(lines: readonly string[]): (path: string) => boolean {
  let matcher = MATCHERS.get(lines);
  if (!matcher) {
    matcher = gitignoreMatcher(lines);
    MATCHERS.set(lines, matcher);
  }
  return matcher;
}

/** MkDocs. */
export const mkdocs: GeneratorRules = {
  page(input, setup) {
    const directoryUrls = setup.data.mkdocs?.useDirectoryUrls ?? true;
    const { dirs, file } = pathParts(input.path);
    const stem = withoutLang(withoutExtension(file), input.lang);
    // `README` (exactly) is `index`: README.md => index.html.
    const name = stem === "README" ? "index" : stem;
    const folder = dirs.length === 0 ? "/" : `/${dirs.join("/")}/`;
    if (!directoryUrls) return { path: `${folder}${name}.html`, from: "route" };
    // foo.md => foo/index.html, its URL foo/; index.md => ./
    return { path: name === "index" ? folder : `${folder}${name}/`, from: "route" };
  },
  // MkDocs publishes `_`-prefixed files; its default `exclude_docs` leaves out
  // dot files and folders and the top-level `templates/` folder, and the
  // site's own `exclude_docs` and `draft_docs` (drafts are only served by
  // `mkdocs serve`) leave out what they match.
  isPartial(path, setup) {
    const segments = path.split("/").filter(Boolean);
    if (segments.some(isDotName) || segments[0] === "templates") return true;
    const lines = setup.data.mkdocs?.excludeDocs;
    return lines !== undefined && lines.length > 0 && excludedBy(lines)(path);
  },
  // The `nav` title of the page (`- Title: path.md`); a suffix-structure
  // translation (`index.fr.md`) takes its page's.
  navTitle(path: string, setup: GeneratorSetup) {
    const titles = setup.data.mkdocs?.navTitles;
    if (!titles) return undefined;
    const key = path.replace(/^\.?\//, "");
    if (Object.hasOwn(titles, key)) return titles[key];
    const locales = setup.data.mkdocs?.i18n?.languages.map((language) => language.locale) ?? [];
    const { dirs, file } = pathParts(key);
    const stem = withoutExtension(file);
    const extension = file.slice(stem.length);
    for (const locale of locales) {
      const base = withoutLang(stem, locale);
      if (base === stem) continue;
      const untranslated = [...dirs, base + extension].join("/");
      if (Object.hasOwn(titles, untranslated)) return titles[untranslated];
    }
    return undefined;
  },
};
