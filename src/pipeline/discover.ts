// A plugin's other locales and versions as its generator lays them out
// (SPEC 16.3 "Discovered from the generator"), when its `variants` are not
// given: Docusaurus' versions.json, versioned_docs/ and i18n/; Hugo's
// languages with their contentDir, or translations by file name; Starlight's
// and VitePress' locale folders; MkDocs' translations by file name.
import type { ContentConfig, ContentPluginConfig } from "../config/types.ts";
import type { SiteData } from "../generators/types.ts";
import type { FoundVariant, FoundVariants } from "./variants.ts";

/** What discovery may look at: folders under the content root, and where to warn. */
export interface DiscoverIo {
  /** Whether a path relative to the content root is a folder. */
  isFolder(relative: string): Promise<boolean>;
  /** A warning about a file (relative to the content root). */
  warn(file: string, message: string): void;
}

/** Docusaurus' i18n folder of each plugin type (docusaurus.io/docs/i18n/tutorial). */
const DOCUSAURUS_I18N: Readonly<Record<string, string>> = {
  docs: "docusaurus-plugin-content-docs",
  blog: "docusaurus-plugin-content-blog",
  pages: "docusaurus-plugin-content-pages",
};

/** A route under a locale's prefix (`/fr` + `/docs`; the site's root is `/fr`). */
const under = (prefix: string, route: string) => `${prefix}${route === "/" ? "" : route}` || "/";

/** A folder under a route (`/docs` + `next`; under the site's root `/`, `/next`, not `//next`). */
const below = (route: string, name: string) => `${route === "/" ? "" : route}/${name}`;

/**
 * The variants of a plugin as its generator lays them out, or `undefined`
 * where it has none: each other folder (or, for translations by file name,
 * the files of another locale in the plugin's own folder) with its locale,
 * version and route.
 *
 * @example
 * ```ts
 * import { discoverVariants } from "./discover.ts";
 * declare const plugin: import("../config/types.ts").ContentPluginConfig;
 * declare const config: import("../config/types.ts").ContentConfig;
 * const found = await discoverVariants(plugin, config, { docusaurus: { versions: ["2.0"] } }, {
 *   isFolder: () => Promise.resolve(true), warn: console.warn,
 * });
 * ```
 */
export async function discoverVariants(
  plugin: ContentPluginConfig,
  config: ContentConfig,
  data: SiteData,
  io: DiscoverIo,
): Promise<FoundVariants | undefined> {
  const [defaultLang, ...others] = config.locales;
  const site = config.site === config.root
    ? ""
    : config.site.startsWith(`${config.root}/`)
    ? `${config.site.slice(config.root.length + 1)}/`
    : undefined;
  const route = plugin.route;
  switch (plugin.generator) {
    case "docusaurus": {
      if (site === undefined) return undefined;
      const variants: FoundVariant[] = [];
      const versions = plugin.type === "docs" ? data.docusaurus?.versions ?? [] : [];
      const versionRoute = (v: string, prefix = "") =>
        v === versions[0] ? under(prefix, route) : below(under(prefix, route), v);
      for (const version of versions) {
        const path = `${site}versioned_docs/version-${version}`;
        if (await io.isFolder(path)) variants.push({ path, version, route: versionRoute(version) });
        else io.warn(`${site}versions.json`, `version ${version} has no folder ${path}; left out`);
      }
      const i18n = DOCUSAURUS_I18N[plugin.type];
      for (const lang of i18n ? others : []) {
        const base = `${site}i18n/${lang}/${i18n}`;
        if (plugin.type !== "docs") {
          if (await io.isFolder(base)) {
            variants.push({ path: base, lang, route: under(`/${lang}`, route) });
          }
          continue;
        }
        const current = `${base}/current`;
        if (await io.isFolder(current)) {
          variants.push({
            path: current,
            lang,
            ...(versions.length ? { version: "current" } : {}),
            route: versions.length
              ? below(under(`/${lang}`, route), "next")
              : under(`/${lang}`, route),
          });
        }
        for (const version of versions) {
          const path = `${base}/version-${version}`;
          if (await io.isFolder(path)) {
            variants.push({ path, lang, version, route: versionRoute(version, `/${lang}`) });
          }
        }
      }
      if (variants.length === 0 && versions.length === 0) return undefined;
      return {
        variants,
        ...(versions.length ? { ownVersion: "current", ownRoute: below(route, "next") } : {}),
      };
    }
    case "hugo": {
      const hugo = data.hugo;
      const languages = (hugo?.languages ?? []).filter((language) => !language.disabled);
      const main = hugo?.defaultContentLanguage ?? defaultLang;
      const inSubdir = hugo?.defaultContentLanguageInSubdir ?? false;
      const ownRoute = inSubdir && main ? under(`/${main}`, route) : undefined;
      const ownDir = languages.find((language) => language.code === main)?.contentDir;
      if (site !== undefined && ownDir !== undefined) {
        // Each language has its own content folder: the plugin's folder is the default's.
        const prefix = `${site}${ownDir.replace(/\/+$/, "")}`;
        const rest = plugin.path === prefix
          ? ""
          : plugin.path.startsWith(`${prefix}/`)
          ? plugin.path.slice(prefix.length)
          : undefined;
        if (rest === undefined) return undefined;
        const variants: FoundVariant[] = [];
        for (const language of languages) {
          if (language.code === main || language.contentDir === undefined) continue;
          const path = `${site}${language.contentDir.replace(/\/+$/, "")}${rest}`;
          if (await io.isFolder(path)) {
            variants.push({ path, lang: language.code, route: under(`/${language.code}`, route) });
          }
        }
        return { variants, ...(ownRoute ? { ownRoute } : {}) };
      }
      // One content folder: translations by file name (`about.de.md`).
      const codes = languages.length ? languages.map((l) => l.code) : config.locales;
      return byFileName(plugin, codes.filter((code) => code !== main), main, route, ownRoute);
    }
    case "mkdocs": {
      const i18n = data.mkdocs?.i18n;
      if (i18n?.structure === "folder") return undefined; // given as `variants` (docs/<lang>/)
      const locales = i18n ? i18n.languages.map((l) => l.locale) : config.locales;
      const main = i18n?.languages.find((l) => l.default)?.locale ?? locales[0];
      if (!main) return undefined;
      return byFileName(plugin, locales.filter((code) => code !== main), main, route, undefined);
    }
    case "starlight":
    case "vitepress": {
      const variants: FoundVariant[] = [];
      const ownExclude: string[] = [];
      for (const lang of others) {
        const path = plugin.path ? `${plugin.path}/${lang}` : lang;
        if (!(await io.isFolder(path))) continue;
        variants.push({ path, lang, route: under(`/${lang}`, route) });
        ownExclude.push(`${lang}/**`);
      }
      if (variants.length === 0) return undefined;
      // The default locale's own folder (`en/`), where the site has one: its pages are the default.
      const ownFolder = defaultLang !== undefined &&
          await io.isFolder(plugin.path ? `${plugin.path}/${defaultLang}` : defaultLang)
        ? defaultLang
        : undefined;
      return { variants, ownExclude, ...(ownFolder ? { ownVariantFolder: ownFolder } : {}) };
    }
    default:
      return undefined;
  }
}

/** Translations by file name: the files of each other locale, `name.<lang>.md`, in the plugin's folder. */
function byFileName(
  plugin: ContentPluginConfig,
  others: readonly string[],
  main: string | undefined,
  route: string,
  ownRoute: string | undefined,
): FoundVariants | undefined {
  if (others.length === 0) return undefined;
  return {
    variants: others.map((lang) => ({
      path: plugin.path,
      lang,
      nameLang: lang,
      route: under(`/${lang}`, route),
    })),
    ownExclude: others.map((lang) => `**/*.${lang}.*`),
    ...(main ? { ownNameLang: main } : {}),
    ...(ownRoute ? { ownRoute } : {}),
  };
}
