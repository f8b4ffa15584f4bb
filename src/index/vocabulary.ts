// What an index's filters accept (SPEC 6.1, 16.3) and what its URLs say
// of one another (SPEC 16.2): facts of the whole index, made once per build.
import type { Warning } from "../source/parsed_file.ts";
import { PLUGINS } from "../plugins.ts";
import type { Item } from "./item.ts";
import { type IndexSettings, pluginOf } from "./settings.ts";

/**
 * The values the filters accept: the enabled types and their categories,
 * the site's locales (the default first) and versions.
 *
 * @example
 * ```ts
 * import { vocabularyOf } from "./vocabulary.ts";
 * vocabularyOf({ title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs", lang: "en" }] }).langs; // ["en"]
 * ```
 */
export function vocabularyOf(settings: IndexSettings): {
  types: string[];
  categories: string[];
  langs: string[];
  versions: string[];
} {
  const present = (key: "lang" | "version") => [
    ...new Set(settings.plugins.flatMap((p) => p[key] === undefined ? [] : [p[key]!])),
  ];
  return {
    types: [...new Set(settings.plugins.map((p) => PLUGINS[pluginOf(p)].type))],
    categories: [...new Set(settings.plugins.flatMap((p) => PLUGINS[pluginOf(p)].categories))],
    langs: present("lang"),
    versions: present("version"),
  };
}

/**
 * A warning for each item whose `url` another item has already: the
 * generator would publish one page over the other (SPEC 16.2).
 *
 * @example
 * ```ts
 * import { duplicateUrls } from "./vocabulary.ts";
 * declare const items: readonly import("./item.ts").Item[];
 * duplicateUrls(items); // [{ file: "docs/b.md", message: 'same url "/docs/a" as docs/a.md: …' }]
 * ```
 */
export function duplicateUrls(items: readonly Item[]): Warning[] {
  const warnings: Warning[] = [];
  const byUrl = new Map<string, Item>();
  for (const item of items) {
    const other = byUrl.get(item.url);
    if (other) {
      warnings.push({
        file: item.file,
        message: `same url ${
          JSON.stringify(item.url)
        } as ${other.file}: the site publishes one page there`,
      });
    } else byUrl.set(item.url, item);
  }
  return warnings;
}
