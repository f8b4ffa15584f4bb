import type { FileFields } from "../fields/derive.ts";
import { categoryAt } from "../plugins.ts";
import type { Item, Tag } from "./item.ts";
import type { Placed } from "./plugin_tree.ts";

/**
 * The item of a placed file (SPEC 4): its fields, its place in the tree,
 * its tags with their counts in the feed (one tag object per name and slug
 * in a build, shared through `tagObjects`).
 *
 * @param permalink the plugin's `url` pattern, if it has one
 *
 * @example
 * ```ts
 * import { newItem } from "./new_item.ts";
 * declare const placed: import("./plugin_tree.ts").Placed;
 * const item = newItem(placed, null, new Map(), new Map(), undefined);
 * ```
 */
export function newItem(
  d: Placed,
  parent: string | null,
  tagCounts: ReadonlyMap<string, number>,
  tagObjects: Map<string, Tag>,
  permalink: string | undefined,
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
    url: f.permalink ?? (permalink ? fillPermalink(permalink, d, f) : `/${d.plugin.type}/${d.uri}`),
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
  };
}

/** A plugin's `permalink` pattern filled in for an item (SPEC 4 `url`). */
function fillPermalink(pattern: string, d: Placed, f: FileFields): string {
  const [yyyy, mm, dd] = f.date.split("-");
  const values: Record<string, string> = {
    type: d.plugin.type,
    uri: d.uri,
    slug: f.slug,
    yyyy,
    mm,
    dd,
  };
  return pattern.replace(/\{(\w+)\}/g, (whole, name) => values[name] ?? whole);
}
