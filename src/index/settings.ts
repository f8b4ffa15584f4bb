import type { ContentConfig } from "../config/types.ts";

/** What the index keeps of the configuration. */
export type IndexSettings = Pick<ContentConfig, "title" | "url" | "api" | "sitemap"> & {
  /** `/llms.txt` and `/llms-full.txt` enabled (default false). */
  readonly llms?: boolean;
  /** `/feed.json` enabled (default false). */
  readonly feed?: boolean;
  /** `POST /api/mcp` enabled (default false). */
  readonly mcp?: boolean;
  /** `plugins.mcp.allowed_origins` (SPEC 14), when the config sets it: a snapshot carries it. */
  readonly mcpAllowedOrigins?: readonly string[];
  /** The site's description (`llms.txt`, the JSON Feed). */
  readonly description?: string;
  /** Where the site publishes its pages (`site_url`, SPEC 16.1); absent: the base URL. */
  readonly siteUrl?: string;
  /**
   * Enabled content plugins, in config order, with their folders and layout
   * options; a plugin with other locales or versions (SPEC 16.3) is one entry
   * per folder, its default variant first.
   */
  readonly plugins: readonly PluginSettings[];
};

/** What the index keeps of one content plugin's configuration (or of one of its variants). */
export interface PluginSettings {
  /**
   * The plugin's name; for a folder of another locale or version (SPEC
   * 16.3), a name of its own (`docs:fr`), and the plugin's in `type`.
   */
  readonly name: string;
  /** The plugin this folder belongs to, where `name` is a variant's (absent: `name`). */
  readonly type?: "academy" | "blog" | "docs" | "faq" | "pages";
  /** Its folder, relative to the content root. */
  readonly path: string;
  /** A folder without an own file: a path segment (`keep`, the default), or left out (`skip`). */
  readonly orphans?: "keep" | "skip";
  /** The plugin's `url` pattern (SPEC 4). */
  readonly permalink?: string;
  /** Where the site publishes this folder (SPEC 16.1 `route`); absent: `/<type>`. */
  readonly route?: string;
  /** The locale of its pages (SPEC 16.3). */
  readonly lang?: string;
  /** The version of its pages (SPEC 16.3). */
  readonly version?: string;
  /**
   * What the `uri` of its items starts with (a variant's `fr`, `1-0`,
   * `fr/current`): ids stay unique across variants; absent: nothing.
   */
  readonly uriPrefix?: string;
  /** Whether it is another variant than the default one (its items have a `variant_of`). */
  readonly variant?: boolean;
  /** Where the default variant's pages sit in its folder (Starlight's `en/`): `variant_of` starts there. */
  readonly variantOfPrefix?: string;
  /** Its folder sits inside the default variant's: its root page's `uri` is the prefix alone. */
  readonly nested?: boolean;
  /**
   * Hugo's leaf bundles: a folder with an `index.*` is one page, and the
   * other files in it and below it are its resources, not pages (SPEC 16.4).
   */
  readonly leafBundles?: boolean;
}

/**
 * The plugin a settings entry belongs to: its own name, or a variant's `type`.
 *
 * @example
 * ```ts
 * import { pluginOf } from "./settings.ts";
 * pluginOf({ name: "docs:fr", type: "docs", path: "i18n/fr/docs" }); // "docs"
 * ```
 */
export function pluginOf(settings: PluginSettings): "academy" | "blog" | "docs" | "faq" | "pages" {
  return settings.type ?? (settings.name as "academy" | "blog" | "docs" | "faq" | "pages");
}

/**
 * What the index keeps of a configuration (also what a snapshot stores).
 *
 * @example
 * ```ts
 * import { indexSettings } from "./settings.ts";
 * import { validateConfig } from "../config/validate.ts";
 * const config = validateConfig({ plugins: { docs: null, api: null } }, "/site/content");
 * indexSettings(config).plugins; // [{ name: "docs", path: "docs" }]
 * ```
 */
export function indexSettings(config: ContentConfig): IndexSettings {
  const { title, url, api, sitemap, llms, feed, mcp, description } = config;
  return {
    title,
    url,
    api,
    sitemap,
    ...(llms ? { llms } : {}),
    ...(feed ? { feed } : {}),
    ...(mcp ? { mcp } : {}),
    ...(config.mcpAllowedOrigins !== undefined
      ? { mcpAllowedOrigins: config.mcpAllowedOrigins }
      : {}),
    ...(description !== undefined ? { description } : {}),
    ...(config.siteUrl !== undefined ? { siteUrl: config.siteUrl } : {}),
    plugins: config.plugins.map((p) => ({
      name: p.name,
      ...(p.type !== p.name ? { type: p.type } : {}),
      path: p.path,
      ...(p.orphans === "skip" ? { orphans: p.orphans } : {}),
      ...(p.permalink ? { permalink: p.permalink } : {}),
      ...(p.route !== `/${p.type}` ? { route: p.route } : {}),
      ...(p.lang !== undefined ? { lang: p.lang } : {}),
      ...(p.version !== undefined ? { version: p.version } : {}),
      ...(p.uriPrefix ? { uriPrefix: p.uriPrefix } : {}),
      ...(p.variant ? { variant: true } : {}),
      ...(p.variantOfPrefix ? { variantOfPrefix: p.variantOfPrefix } : {}),
      ...(p.nested ? { nested: true } : {}),
      ...(p.generator === "hugo" ? { leafBundles: true } : {}),
    })),
  };
}
