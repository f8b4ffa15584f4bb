import type { FileFields } from "../fields/derive.ts";
import { categoryAt } from "../plugins.ts";
import type { Item, Tag } from "./item.ts";
import type { Placed } from "./plugin_tree.ts";
import type { PluginSettings } from "./settings.ts";

/**
 * The item of a placed file (SPEC 4): its fields, its place in the tree,
 * its tags with their counts in the feed (one tag object per name and slug
 * in a build, shared through `tagObjects`).
 *
 * @param plugin the settings of the plugin (or of its variant) the item is of
 * @param siteUrl where the site publishes its pages (`site_url`), if set
 *
 * @example
 * ```ts
 * import { newItem } from "./new_item.ts";
 * declare const placed: import("./plugin_tree.ts").Placed;
 * const item = newItem(placed, null, new Map(), new Map(), { name: "docs", path: "docs" });
 * ```
 */
export function newItem(
  d: Placed,
  parent: string | null,
  tagCounts: ReadonlyMap<string, number>,
  tagObjects: Map<string, Tag>,
  plugin: PluginSettings,
  siteUrl?: string,
): Item {
  const f = d.fields;
  // One tag object per name and slug in a build, shared by the items that carry it.
  const tags: Tag[] = f.tags.map((t) => {
    const key = `${t.name}\n${t.slug}`;
    let tag = tagObjects.get(key);
    if (!tag) {
      tag = { name: t.name, slug: t.slug, count: tagCounts.get(t.slug) ?? 0 };
      tagObjects.set(key, tag);
    }
    return tag;
  });
  return {
    id: d.id,
    checksum: d.node.file.checksum,
    type: d.plugin.type,
    category: categoryAt(d.plugin, d.node.depth),
    uri: d.uri,
    url: pageUrl(d, f, plugin, siteUrl),
    image: f.image,
    title: f.title,
    description: f.description,
    authors: f.authors,
    tags,
    date: f.date,
    last_update: f.lastUpdate,
    time: d.time,
    body: d.node.file.body,
    parent,
    children: d.childIds,
    indexable: f.indexable,
    searchable: f.searchable,
    eligible: d.eligible,
    file: d.file,
    lang: plugin.lang ?? null,
    version: plugin.version ?? null,
    variant_of: d.variantOf,
  };
}

/**
 * An item's page on the site (SPEC 4 `url`, SPEC 16.2): its front matter's
 * `permalink`, else where its generator publishes it, else the plugin's
 * pattern, else the plugin's `route` and the item's `uri` within its variant; a root-relative one on `site_url` when
 * the site has one (else made absolute with the base URL when rendered).
 */
function pageUrl(d: Placed, f: FileFields, plugin: PluginSettings, siteUrl?: string): string {
  const route = plugin.route ?? `/${d.plugin.type}`;
  const url = f.permalink ?? (f.page
    ? "url" in f.page
      ? f.page.url
      // The generator's path, from the plugin's route (and its variant's), or from the site's root.
      : f.page.from === "route"
      ? `${route === "/" ? "" : route}${f.page.path}`
      : f.page.path
    : plugin.permalink
    ? fillPermalink(plugin.permalink, d, f)
    : `${route}/${d.own}`.replace(/^\/\//, "/"));
  return siteUrl !== undefined && url.startsWith("/") && !url.startsWith("//")
    ? siteUrl + url
    : url;
}

/** A plugin's `permalink` pattern filled in for an item (SPEC 4 `url`, SPEC 16.2). */
function fillPermalink(pattern: string, d: Placed, f: FileFields): string {
  const [yyyy, mm, dd] = f.date.split("-");
  const values: Record<string, string> = {
    type: d.plugin.type,
    uri: d.uri,
    slug: f.slug,
    yyyy,
    mm,
    dd,
    // The file's path under its folder as written, without its extension, `index` folded.
    path: d.node.file.path.replace(/\.[^./]*$/, "").replace(/(?:^|\/)index$/, ""),
    // The slug without a `YYYY-MM-DD-` prefix.
    name: f.slug.replace(/^\d{4}-\d{2}-\d{2}-/, ""),
  };
  return pattern.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}
