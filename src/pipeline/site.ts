// What the site's generator says before anything is indexed (SPEC 16.1,
// 16.3): its data config files read from the `site` folder, each plugin's
// other locales and versions found from them, and what deriving each
// folder's files needs to know (its generator's rules, its locale, version).
import type { ContentConfig, ContentPluginConfig } from "../config/types.ts";
import type { PageContext } from "../fields/page.ts";
import type { SiteData } from "../generators/types.ts";
import { PLUGINS } from "../plugins.ts";
import { readJsonFiles } from "../source/data_files.ts";
import { isFolder, readText } from "../source/fs.ts";
import type { Warning } from "../source/parsed_file.ts";
import { discoverVariants } from "./discover.ts";
import { expandVariants, type FoundVariants } from "./variants.ts";

/** A configuration as the pipeline indexes it. */
export interface ResolvedSite {
  /** The configuration with a plugin per folder of each plugin's locales and versions. */
  readonly config: ContentConfig;
  /** What deriving each (expanded) plugin's files needs beside them, by plugin name. */
  readonly pages: Readonly<Record<string, PageContext>>;
  /** Data config files that did not parse, versions without their folder. */
  readonly warnings: readonly Warning[];
}

/** A path under the content root, relative to it; `undefined` for one outside. */
export function underRoot(root: string, path: string): string | undefined {
  if (path === root) return "";
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : undefined;
}

/**
 * Reads what the site's generators say and splits each plugin with other
 * locales or versions into a plugin per folder (SPEC 16.3). A
 * configuration of `plain` plugins without locales is given back as it is,
 * and nothing is read.
 *
 * @example
 * ```ts
 * import { resolveSite } from "./site.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const { config, pages, warnings } = await resolveSite(await loadConfigFile("content/services.yaml"));
 * ```
 */
export async function resolveSite(config: ContentConfig): Promise<ResolvedSite> {
  const warnings: Warning[] = [];
  const shown = (path: string) => underRoot(config.root, path) ?? path;
  const data = new Map<string, SiteData>();
  // The generators' data readers load for a site that has one (a plain site never needs them).
  const { parseEleventyData, parseSiteData, SITE_FILES } =
    config.plugins.some((p) => p.generator !== "plain")
      ? await import("../generators/site_readers.ts")
      : {} as Partial<typeof import("../generators/site_readers.ts")>;
  for (const generator of new Set(config.plugins.map((p) => p.generator))) {
    if (generator === "plain") continue;
    const files: { name: string; text: string }[] = [];
    for (const name of SITE_FILES![generator]) {
      const text = await readText(`${config.site}/${name}`);
      if (text !== undefined) files.push({ name, text });
    }
    const parsed = parseSiteData!(files);
    for (const w of parsed.warnings) {
      warnings.push({
        file: shown(`${config.site}/${w.file}`),
        message: `${w.line ? `line ${w.line}: ` : ""}${w.message}`,
      });
    }
    data.set(generator, {
      ...parsed.data,
      ...(config.siteUrl !== undefined ? { siteUrl: config.siteUrl } : {}),
    });
  }
  const found = new Map<string, FoundVariants>();
  const eleventy = new Map<string, SiteData["eleventy"]>();
  for (const plugin of config.plugins) {
    if (plugin.generator === "eleventy") {
      const parsed = parseEleventyData!(await readJsonFiles(`${config.root}/${plugin.path}`));
      for (const w of parsed.warnings) {
        warnings.push({
          file: shown(`${config.root}/${plugin.path}/${w.file}`),
          message: w.message,
        });
      }
      eleventy.set(plugin.name, parsed.data);
    }
    if (plugin.variants !== undefined || plugin.generator === "plain") continue;
    const discovered = await discoverVariants(plugin, config, data.get(plugin.generator) ?? {}, {
      isFolder: (relative) => isFolder(`${config.root}/${relative}`),
      warn: (file, message) => warnings.push({ file, message }),
    });
    if (discovered) found.set(plugin.name, discovered);
  }
  const expanded = expandVariants(config, found);
  const pages: Record<string, PageContext> = {};
  for (const plugin of expanded.plugins) {
    const folder = plugin.path === "" ? config.root : `${config.root}/${plugin.path}`;
    pages[plugin.name] = pageContext(plugin, data, eleventy, underRoot(config.site, folder));
  }
  return { config: expanded, pages, warnings };
}

/** What deriving a plugin's (or variant's) files needs beside them. */
function pageContext(
  plugin: ContentPluginConfig,
  data: ReadonlyMap<string, SiteData>,
  eleventy: ReadonlyMap<string, SiteData["eleventy"]>,
  siteFolder: string | undefined,
): PageContext {
  const own = plugin.name.replace(/:.*$/, "");
  const siteData = data.get(plugin.generator);
  const folders = eleventy.get(own);
  return {
    ...(plugin.generator !== "plain"
      ? {
        generator: {
          name: plugin.generator,
          data: { ...siteData, ...(folders ? { eleventy: folders } : {}) },
          cleanUrls: plugin.cleanUrls,
          type: PLUGINS[plugin.type].type,
        },
      }
      : {}),
    ...(plugin.lang !== undefined ? { lang: plugin.lang } : {}),
    ...(plugin.version !== undefined ? { version: plugin.version } : {}),
    ...(plugin.nameLang !== undefined ? { nameLang: plugin.nameLang } : {}),
    ...(siteFolder !== undefined && plugin.generator !== "plain" ? { siteFolder } : {}),
  };
}
