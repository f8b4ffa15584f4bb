// The shape of a validated service configuration (SPEC 2) and its error:
// what every layer above reads of the config.

/**
 * One enabled content plugin, with its options resolved; or, once the
 * variants are found (SPEC 16.3), one folder of it: a variant has a name of
 * its own and the plugin in `type`.
 */
export interface ContentPluginConfig {
  /** The plugin's name (and `type`); a variant's own name (`docs:fr`). */
  readonly name: string;
  /** The plugin: its `type`, its categories (SPEC 3). */
  readonly type: "academy" | "blog" | "docs" | "faq" | "pages";
  /** Folder of the plugin's files, relative to the content root, `/`-separated. */
  readonly path: string;
  /** Include globs relative to `path`; `undefined` means the plugin's defaults. */
  readonly include: readonly string[] | undefined;
  /** Exclude globs relative to `path`. */
  readonly exclude: readonly string[];
  /** A folder without an own file: a path segment (`keep`), or left out (`skip`). */
  readonly orphans: "keep" | "skip";
  /** A `url` pattern (SPEC 4): an absolute URL or a root-relative path with placeholders. */
  readonly permalink: string | undefined;
  /** An authors file (`authors.yml`), relative to the plugin's folder, as the config names it. */
  readonly authors: string | undefined;
  /** The authors file read: each author key and the name it stands for (set when it is loaded). */
  readonly authorNames?: ReadonlyMap<string, string>;
  /** Where the site publishes the plugin's folder (SPEC 16.1 `route`): `/<type>` by default. */
  readonly route: string;
  /** Whose routing, partials and front-matter rules lay its files out (SPEC 16.1). */
  readonly generator:
    | "plain"
    | "docusaurus"
    | "hugo"
    | "vitepress"
    | "starlight"
    | "jekyll"
    | "eleventy"
    | "mkdocs";
  /**
   * The folders of its other locales and versions (SPEC 16.3 `variants`):
   * each folder relative to the content root, where the site publishes it
   * (default: the plugin's route, prefixed by its locale), its locale (one
   * of `locales`) and its version; `undefined`: found from the generator.
   */
  readonly variants:
    | readonly {
      readonly path: string;
      readonly route?: string;
      readonly lang?: string;
      readonly version?: string;
    }[]
    | undefined;
  /** VitePress: pages without `.html` (`clean_urls: true`). */
  readonly cleanUrls: boolean;
  /** A variant's locale (SPEC 16.3). */
  readonly lang?: string;
  /** A variant's version (SPEC 16.3). */
  readonly version?: string;
  /** What the `uri` of a variant's items starts with (`fr`, `1-0`, `fr/current`). */
  readonly uriPrefix?: string;
  /** Whether it is another variant than the plugin's default one. */
  readonly variant?: boolean;
  /** The locale its files' names carry (`about.de.md`), which leaves their slugs. */
  readonly nameLang?: string;
  /** Where the default variant's pages sit in its folder (Starlight's `en/`): `variant_of` starts there. */
  readonly variantOfPrefix?: string;
  /**
   * Its folder sits inside the default variant's (Starlight's `fr/`): its
   * root page is that folder's own file, its `uri` the prefix alone.
   */
  readonly nested?: boolean;
}

/** The generators whose routing rules the feed knows (SPEC 16.1); `plain` is SPEC 4's own. */
export type GeneratorName = ContentPluginConfig["generator"];

/** A folder that holds another locale or version of a plugin's pages (SPEC 16.3 `variants`). */
export type VariantConfig = NonNullable<ContentPluginConfig["variants"]>[number];

/** A validated `service.content.config`. */
export interface ContentConfig {
  /** Where the config came from, for messages (a file path or `"options"`). */
  readonly source: string;
  /** Free-text site title. */
  readonly title: string | undefined;
  /** Base URL without a trailing slash, when configured. */
  readonly url: string | undefined;
  /** Absolute content root. */
  readonly root: string;
  /** Enabled content plugins in the order the config lists them. */
  readonly plugins: readonly ContentPluginConfig[];
  /** `GET /api/content.json` enabled. */
  readonly api: boolean;
  /** `GET /sitemap.xml` enabled. */
  readonly sitemap: boolean;
  /** `GET /llms.txt` and `/llms-full.txt` enabled (SPEC 14). */
  readonly llms: boolean;
  /** `GET /feed.json`, JSON Feed 1.1, enabled (SPEC 14). */
  readonly feed: boolean;
  /** `POST /api/mcp`, the Model Context Protocol server, enabled (SPEC 14). */
  readonly mcp: boolean;
  /**
   * The origins `plugins.mcp.allowed_origins` lists (SPEC 14), each as
   * `URL.origin` spells it; absent when the config sets none. Browsers'
   * MCP requests from other origins are refused (`http/mcp_origin.ts`).
   */
  readonly mcpAllowedOrigins?: readonly string[];
  /** Content files larger than this many bytes are left out unread (`max_file_size`). */
  readonly maxFileSize: number;
  /** Take dates from git commits where the root is in a work tree (`git`, default true). */
  readonly git: boolean;
  /** Free-text description of the site (`llms.txt`). */
  readonly description: string | undefined;
  /**
   * Absolute folder of the sync journal (`state`): default `.content-feed`
   * beside the config file, or in the content root for a config object.
   */
  readonly state: string;
  /** Days a deletion stays in the journal (`retention`, default 90). */
  readonly retention: number;
  /** Where the site publishes its pages (`site_url`, SPEC 16.1); `undefined`: the base URL. */
  readonly siteUrl: string | undefined;
  /** Absolute folder of the generator's data config files (`site`): default the content root. */
  readonly site: string;
  /** The site's locales, the default first (`locales`); none: no `lang`. */
  readonly locales: readonly string[];
  /** A site-wide authors file (`authors`), absolute; a plugin's own `authors` comes first. */
  readonly authorsFile: string | undefined;
}

/** `max_file_size` when the config sets none: 10 MB. */
export const DEFAULT_MAX_FILE_SIZE = 10 * 1024 * 1024;

/** A configuration problem: its message is the one line printed at start-up. */
export class ConfigError extends Error {
  /** One line: the file (or option), the key, and what was expected. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** The parameter key under `parameters` that holds the content configuration. */
export const CONFIG_KEY = "service.content.config";
