import type { Index, Reuse } from "./build.ts";
import type { TreeExclusion } from "./plugin_tree.ts";

/** One plugin's files that the index serves no item of, or keeps out of the feed. */
export interface PluginExclusions {
  /** The plugin's name. */
  readonly plugin: string;
  /** Its files left out, each with why, in path order. */
  readonly excluded: readonly TreeExclusion[];
}

/**
 * The files of an index's plugins whose items no route serves (a draft,
 * what a draft or an orphan folder hides, a clash lost, too deep) or that
 * the feed leaves out (not indexable, no body), each with its reason as
 * the build decided it, plugins in config order. Made with each plugin's
 * tree, so an index that reuses a tree reuses its exclusions.
 *
 * @example
 * ```ts
 * import { indexExclusions } from "./exclusions.ts";
 * import { buildIndex } from "./build_parsed.ts";
 * const settings = {
 *   title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs" }],
 * };
 * const index = buildIndex([{
 *   plugin: "docs", path: "a.md", checksum: "00", mtime: 0, attrs: { draft: true }, body: "A draft.",
 * }], settings, 0);
 * indexExclusions(index); // [{ plugin: "docs", excluded: [{ file: "docs/a.md", reason: "draft", stage: "tree" }] }]
 * ```
 */
export function indexExclusions(index: Index): readonly PluginExclusions[] {
  const { trees } = index.reuse as Reuse;
  return index.settings.plugins.map(({ name }) => ({
    plugin: name,
    excluded: trees.get(name)?.excluded ?? [],
  }));
}
