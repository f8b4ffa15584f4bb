// Versions and locales (SPEC 16.3): a plugin with other folders of the same
// pages is one plugin of several folders. Each folder is indexed as a plugin
// of its own name, with its locale, its version, its route and a prefix for
// its items' `uri` (so ids stay unique), and the items of every folder but
// the default one say which page they are a variant of.
import type { ContentConfig, ContentPluginConfig, VariantConfig } from "../config/types.ts";
import { PLUGINS } from "../plugins.ts";
import { slugify } from "../util/slugify.ts";

/** One other folder of a plugin as its generator lays it out. */
export type FoundVariant = VariantConfig & {
  /**
   * Its files are those of the plugin's folder whose names carry this
   * locale (`about.de.md`: translations by file name), not a folder's.
   */
  readonly nameLang?: string;
};

/** A plugin's folders as found (SPEC 16.3 "Discovered from the generator"). */
export interface FoundVariants {
  /** The other folders, each with its locale, version and route where known. */
  readonly variants: readonly FoundVariant[];
  /** The plugin's own folder's version, where the generator names one (Docusaurus's `current`). */
  readonly ownVersion?: string;
  /** The plugin's own folder's route, where it is not the plugin's (`/docs/next`). */
  readonly ownRoute?: string;
  /** What the own folder leaves to the others (their locale folders, their file names). */
  readonly ownExclude?: readonly string[];
  /** The locale the own folder's file names may carry (`license.en.md`). */
  readonly ownNameLang?: string;
  /**
   * The default locale's folder inside the own folder (Starlight's `en/`):
   * the others' pages are variants of the pages there.
   */
  readonly ownVariantFolder?: string;
}

/** One folder of a plugin before it becomes a plugin of its own. */
interface Folder {
  readonly path: string;
  readonly route?: string;
  readonly lang?: string;
  readonly version?: string;
  readonly nameLang?: string;
  readonly own: boolean;
}

/** Whether a folder sits inside another (`docs/fr` in `docs`; every folder in the content root `""`). */
function isInside(path: string, folder: string): boolean {
  return folder === "" ? path !== "" : path.startsWith(`${folder}/`);
}

/** A plugin's include globs for the files of one locale by name: `**\/*.md` → `**\/*.de.md`. */
function namedFor(plugin: ContentPluginConfig, lang: string): string[] {
  const include = plugin.include ?? PLUGINS[plugin.type].include;
  // `**/*.md` and the extension shorthand `.md` alike: the locale before the extension.
  return include.map((glob) => glob.replace(/(^|\*)\.([^./*]+)$/, `$1.${lang}.$2`));
}

/**
 * The configuration with each plugin that has other locales or versions
 * (its `variants`, else what `found` discovered) split into one plugin per
 * folder, the default variant first under the plugin's own name: the
 * folder of the default locale and of the version published at the
 * plugin's `route`. The others are named `<plugin>:<uri prefix>`; their
 * `uriPrefix` is their locale (when not the default) and their version's
 * slug (when not the default's), and their route defaults to the plugin's,
 * under `/<lang>` and over `/<version>`. Where the site has locales, every
 * folder without one is of the default locale. A configuration without
 * variants is given back as it is.
 *
 * @example
 * ```ts
 * import { expandVariants } from "./variants.ts";
 * import { validateConfig } from "../config/validate.ts";
 * const config = validateConfig({
 *   locales: ["en", "fr"],
 *   plugins: { docs: { variants: [{ path: "i18n/fr/docs", lang: "fr" }] }, api: null },
 * }, "/site");
 * expandVariants(config).plugins.map((p) => [p.name, p.path, p.lang, p.route, p.uriPrefix]);
 * // [["docs", "docs", "en", "/docs", undefined], ["docs:fr", "i18n/fr/docs", "fr", "/fr/docs", "fr"]]
 * ```
 */
export function expandVariants(
  config: ContentConfig,
  found: ReadonlyMap<string, FoundVariants> = new Map(),
): ContentConfig {
  const defaultLang = config.locales[0];
  let changed = false;
  const plugins = config.plugins.flatMap((plugin): ContentPluginConfig[] => {
    const discovered = found.get(plugin.name);
    const given: readonly FoundVariant[] = plugin.variants ?? discovered?.variants ?? [];
    if (given.length === 0 && defaultLang === undefined) return [plugin];
    changed = true;
    // The plugin's own folder is one of its variants; an entry of `variants` may describe it.
    const ownEntry = given.find((variant) =>
      variant.path === plugin.path && variant.nameLang === undefined
    );
    const folders: Folder[] = [
      {
        path: plugin.path,
        route: ownEntry?.route ?? (plugin.variants ? undefined : discovered?.ownRoute),
        lang: ownEntry?.lang ?? defaultLang,
        version: ownEntry?.version ?? (plugin.variants ? undefined : discovered?.ownVersion),
        nameLang: plugin.variants ? undefined : discovered?.ownNameLang,
        own: true,
      },
      ...given.filter((variant) => variant !== ownEntry).map((variant) => ({
        ...variant,
        lang: variant.lang ?? defaultLang,
        own: false,
      })),
    ];
    // The default: the default locale's folder published at the plugin's route.
    const isDefault = (folder: Folder) =>
      folder.lang === defaultLang && (folder.route ?? plugin.route) === plugin.route;
    const chosen = folders.find(isDefault) ?? folders[0];
    const defaultVersion = chosen.version;
    // A locale's folder that names no version is of the default version.
    const ordered = [chosen, ...folders.filter((folder) => folder !== chosen)].map((folder) =>
      folder.version === undefined && folder.lang !== defaultLang && defaultVersion !== undefined
        ? { ...folder, version: defaultVersion }
        : folder
    );
    const taken = new Set<string>();
    return ordered.map((folder, i) => {
      const langPart = folder.lang !== undefined && folder.lang !== defaultLang
        ? folder.lang
        : undefined;
      const versionPart = folder.version !== undefined && folder.version !== defaultVersion
        ? folder.version
        : undefined;
      let uriPrefix = [langPart?.toLowerCase(), versionPart && slugify(versionPart)]
        .filter(Boolean).join("/");
      if (i > 0 && (uriPrefix === "" || taken.has(uriPrefix))) {
        uriPrefix = `${uriPrefix || "v"}-${i}`;
      }
      taken.add(uriPrefix);
      const base = plugin.route === "/" ? "" : plugin.route;
      const route = folder.route ??
        (`${langPart ? `/${langPart}` : ""}${base}${versionPart ? `/${versionPart}` : ""}` || "/");
      const found = plugin.variants ? undefined : discovered;
      return {
        ...plugin,
        name: i === 0 ? plugin.name : `${plugin.name}:${uriPrefix}`,
        path: folder.path,
        route,
        variants: undefined,
        ...(folder.own && found?.ownExclude
          ? { exclude: [...plugin.exclude, ...found.ownExclude] }
          : {}),
        ...(folder.nameLang !== undefined ? { nameLang: folder.nameLang } : {}),
        ...(!folder.own && folder.nameLang !== undefined
          ? { include: namedFor(plugin, folder.nameLang) }
          : {}),
        ...(i > 0 && found?.ownVariantFolder ? { variantOfPrefix: found.ownVariantFolder } : {}),
        ...(!folder.own && isInside(folder.path, plugin.path) ? { nested: true } : {}),
        ...(folder.lang !== undefined ? { lang: folder.lang } : {}),
        ...(folder.version !== undefined ? { version: folder.version } : {}),
        ...(uriPrefix ? { uriPrefix } : {}),
        ...(i > 0 ? { variant: true } : {}),
      };
    });
  });
  return changed ? { ...config, plugins } : config;
}
