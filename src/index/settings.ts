import type { ContentConfig } from "../config/types.ts";

/** What the index keeps of the configuration. */
export type IndexSettings = Pick<ContentConfig, "title" | "url" | "api" | "sitemap"> & {
  /** `/llms.txt` and `/llms-full.txt` enabled (default false). */
  readonly llms?: boolean;
  /** `/feed.json` enabled (default false). */
  readonly feed?: boolean;
  /** `POST /api/mcp` enabled (default false). */
  readonly mcp?: boolean;
  /** The site's description (`llms.txt`, the JSON Feed). */
  readonly description?: string;
  /** Enabled content plugins, in config order, with their folders and layout options. */
  readonly plugins: readonly PluginSettings[];
};

/** What the index keeps of one content plugin's configuration. */
export interface PluginSettings {
  /** The plugin's name. */
  readonly name: string;
  /** Its folder, relative to the content root. */
  readonly path: string;
  /** A folder without an own file: a path segment (`keep`, the default), or left out (`skip`). */
  readonly orphans?: "keep" | "skip";
  /** The plugin's `url` pattern (SPEC 4). */
  readonly permalink?: string;
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
    ...(description !== undefined ? { description } : {}),
    plugins: config.plugins.map(({ name, path, orphans, permalink }) => ({
      name,
      path,
      ...(orphans === "skip" ? { orphans } : {}),
      ...(permalink ? { permalink } : {}),
    })),
  };
}
