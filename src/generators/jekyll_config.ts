// Jekyll's `_config.yml` as JekyllData (jekyllrb.com/docs/configuration,
// collections, permalinks; configuration.rb `add_default_collections`):
// `permalink` (default `date`), `collections` (a table or a list of labels;
// `posts` always, with `output: true`), `collections_dir`, and the
// `permalink` of each `defaults:` entry.
import { isMap } from "./data_text.ts";
import { JEKYLL_DEFAULTS } from "./jekyll.ts";
import type {
  JekyllCollection,
  JekyllData,
  JekyllPermalinkDefault,
  SiteDataWarning,
} from "./types.ts";

/** `collections` as a list (`posts` first, always output). */
function collectionsOf(value: unknown): JekyllCollection[] {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.filter((label) => typeof label === "string").map((label) => [label as string, {}])
    : isMap(value)
    ? Object.entries(value)
    : [];
  const out: JekyllCollection[] = [];
  let posts: JekyllCollection = { name: "posts", output: true, permalink: undefined };
  for (const [name, meta] of entries) {
    const permalink = isMap(meta) && typeof meta.permalink === "string" && meta.permalink.trim()
      ? meta.permalink
      : undefined;
    if (name === "posts") posts = { name, output: true, permalink };
    else out.push({ name, output: isMap(meta) && meta.output === true, permalink });
  }
  return [posts, ...out];
}

/** A `defaults:` scope type Jekyll still reads under its old name (frontmatter_defaults.rb). */
const DEPRECATED_TYPES: Readonly<Record<string, string>> = {
  page: "pages",
  post: "posts",
  draft: "drafts",
};

/** `defaults:` entries that set a `permalink`. */
function permalinkDefaultsOf(value: unknown): JekyllPermalinkDefault[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    if (!isMap(entry) || !isMap(entry.values) || typeof entry.values.permalink !== "string") {
      return [];
    }
    const scope = isMap(entry.scope) ? entry.scope : {};
    const type = typeof scope.type === "string" ? scope.type : undefined;
    return [{
      path: typeof scope.path === "string" ? scope.path : "",
      // `update_deprecated_types`: the singular types Jekyll 2 wrote are the plural ones.
      type: type !== undefined && Object.hasOwn(DEPRECATED_TYPES, type)
        ? DEPRECATED_TYPES[type]
        : type,
      permalink: entry.values.permalink,
    }];
  });
}

/**
 * `_config.yml`'s value as JekyllData, each key at Jekyll's default when
 * absent or of the wrong type (with a warning).
 *
 * @example
 * ```ts
 * import { jekyllDataOf } from "./jekyll_config.ts";
 * jekyllDataOf({ permalink: "pretty", collections: { recipes: { output: true } } }, "_config.yml", []).collections.length; // 2
 * ```
 */
export function jekyllDataOf(
  config: unknown,
  file: string,
  warnings: SiteDataWarning[],
): JekyllData {
  if (!isMap(config)) return JEKYLL_DEFAULTS;
  let permalink = JEKYLL_DEFAULTS.permalink;
  if (typeof config.permalink === "string" && config.permalink.trim() !== "") {
    permalink = config.permalink.trim();
  } else if (config.permalink !== undefined && config.permalink !== null) {
    warnings.push({
      file,
      message: "permalink: expected a style or a pattern; Jekyll's `date` applies",
    });
  }
  const dir = config.collections_dir;
  return {
    permalink,
    collections: collectionsOf(config.collections),
    collectionsDir: typeof dir === "string" ? dir.replace(/^\/+|\/+$/g, "") : "",
    permalinkDefaults: permalinkDefaultsOf(config.defaults),
  };
}
