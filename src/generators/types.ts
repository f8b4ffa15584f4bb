// The shapes of the per-generator rules (SPEC 16): what a generator's data
// config files say (SiteData), a plugin's generator setup, one file as its
// generator sees it, and where the generator publishes it. All plain data:
// a setup goes to the start-up worker by structured clone.
import type { GeneratorName } from "../config/types.ts";

/** One `permalinks` rule of a Hugo site config: a URL pattern for a kind of page in a section. */
export interface HugoPermalinkRule {
  /** `page` (a regular page or a leaf bundle) or `section` (an `_index.md` list page). */
  readonly kind: "page" | "section";
  /** The section path it targets, lower-case, without outer slashes; `""`: the root's own pages. */
  readonly section: string;
  /** The pattern with Hugo's tokens (`/:year/:month/:slug/`). */
  readonly pattern: string;
}

/** One language of a multilingual Hugo site (`[languages.<code>]`). */
export interface HugoLanguage {
  /** The language key as the config writes it (`en`, `pt-br`). */
  readonly code: string;
  /** Its `weight` (0: unweighted). */
  readonly weight: number;
  /** Its own `contentDir`, relative to the site folder; `undefined`: it shares the site's. */
  readonly contentDir: string | undefined;
  /** `disabled = true`, or named in `disableLanguages`. */
  readonly disabled: boolean;
  /** Its own `permalinks`, which come before the site's. */
  readonly permalinks: readonly HugoPermalinkRule[];
}

/** A `[[module.mounts]]` entry whose target is the content folder (another way to give languages their content). */
export interface HugoContentMount {
  /** The folder mounted, relative to the site folder. */
  readonly source: string;
  /** Where it is mounted: `content` or a folder inside it. */
  readonly target: string;
  /** The mount's `lang`, if any. */
  readonly lang: string | undefined;
}

/** What Hugo's site config (`hugo.toml`, `config.toml`, `config/_default/…`) says. */
export interface HugoData {
  /** `contentDir`, relative to the site folder (default `content`). */
  readonly contentDir: string;
  /** `defaultContentLanguage` (default `en`). */
  readonly defaultContentLanguage: string;
  /** `defaultContentLanguageInSubdir`: the default language's URLs also get its prefix. */
  readonly defaultContentLanguageInSubdir: boolean;
  /** `languages`, by weight then code (Hugo's order); none for a monolingual site. */
  readonly languages: readonly HugoLanguage[];
  /** The site's `permalinks`. */
  readonly permalinks: readonly HugoPermalinkRule[];
  /** `uglyURLs`: for the whole site, or per top-level section (lower-case keys). */
  readonly uglyURLs: boolean | Readonly<Record<string, boolean>>;
  /** `disablePathToLower`: paths keep their case. */
  readonly disablePathToLower: boolean;
  /** `removePathAccents`: paths lose their accents. */
  readonly removePathAccents: boolean;
  /** `module.mounts` into the content folder. */
  readonly contentMounts: readonly HugoContentMount[];
}

/** One Jekyll collection (`collections:` in `_config.yml`; `posts` is always one). */
export interface JekyllCollection {
  /** Its label: the folder is `_<name>`. */
  readonly name: string;
  /** `output: true`: its documents are pages (posts always are). */
  readonly output: boolean;
  /** Its own `permalink` pattern, if any. */
  readonly permalink: string | undefined;
}

/** A `defaults:` entry of `_config.yml` that sets `permalink`. */
export interface JekyllPermalinkDefault {
  /** `scope.path`: a path prefix under the site's folder (`""`: everything). */
  readonly path: string;
  /** `scope.type`: `posts`, `pages` or a collection's label; `undefined`: any. */
  readonly type: string | undefined;
  /** `values.permalink`. */
  readonly permalink: string;
}

/** What Jekyll's `_config.yml` says. */
export interface JekyllData {
  /** `permalink`: a style (`date`, the default; `pretty`, `ordinal`, `weekdate`, `none`) or a pattern. */
  readonly permalink: string;
  /** `collections` (always with `posts`). */
  readonly collections: readonly JekyllCollection[];
  /** `collections_dir` (default `""`: collections at the site's root). */
  readonly collectionsDir: string;
  /** `defaults` that set a `permalink`. */
  readonly permalinkDefaults: readonly JekyllPermalinkDefault[];
}

/** A language of the mkdocs-static-i18n plugin (`plugins: - i18n: languages:`). */
export interface MkDocsLanguage {
  /** `locale`. */
  readonly locale: string;
  /** `default: true`. */
  readonly default: boolean;
}

/** What MkDocs' `mkdocs.yml` says. */
export interface MkDocsData {
  /** `docs_dir`, relative to the site folder (default `docs`). */
  readonly docsDir: string;
  /** `use_directory_urls` (default true). */
  readonly useDirectoryUrls: boolean;
  /** `nav` titles by page path under `docs_dir` (`- Title: path.md`). */
  readonly navTitles: Readonly<Record<string, string>>;
  /**
   * The gitignore-style lines of `exclude_docs` and `draft_docs` (paths
   * under `docs_dir`): files MkDocs does not publish; absent: none.
   */
  readonly excludeDocs?: readonly string[];
  /** The mkdocs-static-i18n plugin's `docs_structure` and languages, when it is configured. */
  readonly i18n:
    | { readonly structure: "suffix" | "folder"; readonly languages: readonly MkDocsLanguage[] }
    | undefined;
}

/** What Docusaurus' `versions.json` says. */
export interface DocusaurusData {
  /** The versions, newest first (the newest is published at the docs' route). */
  readonly versions: readonly string[];
}

/** Eleventy's `permalink` from its JSON data files (JavaScript data files are never run). */
export interface EleventyData {
  /** By folder (`blog`, `blog/2024`): its directory data file's `permalink`; `false`: not pages. */
  readonly folders: Readonly<Record<string, string | false>>;
  /** By template path without extension (`blog/post`): its template data file's `permalink`. */
  readonly templates: Readonly<Record<string, string | false>>;
}

/**
 * What a site's generator data config files say, parsed: one optional part per
 * generator (absent: that generator's defaults). Plain data, structured-cloneable.
 */
export interface SiteData {
  /**
   * The config's `site_url`, when set: an absolute URL in front matter on this
   * origin (and under its path) stays on the site; any other leaves it.
   */
  readonly siteUrl?: string;
  readonly hugo?: HugoData;
  readonly jekyll?: JekyllData;
  readonly mkdocs?: MkDocsData;
  readonly docusaurus?: DocusaurusData;
  readonly eleventy?: EleventyData;
}

/** A plugin's generator setup: name, its site data, its options. Structured-cloneable. */
export interface GeneratorSetup {
  readonly name: GeneratorName;
  readonly data: SiteData;
  /** VitePress clean URLs (plugin option `clean_urls`). */
  readonly cleanUrls: boolean;
  /** The plugin's type (docs, blog, pages…): Docusaurus docs and blog have different rules. */
  readonly type: string;
}

/** One file as its generator sees it. */
export interface PageInput {
  /** Its path under its variant's folder, as written, with its extension ("guides/01-intro.md"). */
  readonly path: string;
  /** Its front matter. */
  readonly attrs: Readonly<Record<string, unknown>>;
  /** Its date (YYYY-MM-DD, SPEC 4), for date placeholders. */
  readonly date: string;
  /** Its title (SPEC 4), for `:title` placeholders. */
  readonly title: string;
  /** The variant's locale ("" or absent when none): Hugo's `name.<lang>.md`, MkDocs i18n. */
  readonly lang?: string;
  /** The variant's version ("" or absent when none). */
  readonly version?: string;
  /**
   * The variant's folder relative to the site folder (`_tutorials`; `""`:
   * the site folder itself), when it is inside it: Jekyll knows a
   * collection's documents by their folder, and publishes pages from the
   * site's root.
   */
  readonly siteFolder?: string;
}

/** Where a page is published. */
export type PagePath =
  /** A path that starts with "/", from the plugin's route and variant prefix, or from the root of `site_url`. */
  | { readonly path: string; readonly from: "route" | "site" }
  /** An absolute URL the front matter gives. */
  | { readonly url: string }
  /** Not a page (Eleventy `permalink: false`, a Jekyll collection without `output`). */
  | { readonly notPage: true }
  /** A bad slug/permalink: warn (naming the file and this message), publish at `fallback`. */
  | { readonly problem: string; readonly fallback: PagePath };

/** The per-generator rules. */
export interface GeneratorRules {
  /** The page a file publishes at (SPEC 16.2). */
  page(input: PageInput, setup: GeneratorSetup): PagePath;
  /** Whether a file or folder (path under the variant folder) is a partial: not a page (SPEC 16.4). */
  isPartial(path: string, setup: GeneratorSetup): boolean;
  /** The title the site shows instead of the file's, if any (MkDocs `nav`). */
  navTitle?(path: string, setup: GeneratorSetup): string | undefined;
}

/** A data config file that did not parse, or a value in it that was left out. */
export interface SiteDataWarning {
  /** The file, as the caller named it (relative to the site folder). */
  readonly file: string;
  /** The line, when the parser gives one. */
  readonly line?: number;
  /** What is wrong, and that the generator's defaults apply. */
  readonly message: string;
}
