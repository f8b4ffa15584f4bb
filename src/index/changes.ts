import type { Index } from "./build.ts";

/**
 * What changed between two indexes, by the ids of their served items: an
 * item whose inputs did not change keeps its object from one build to the
 * next, so an id whose item is another object is a candidate change. It
 * may be no change at all to a reader (a tag's count moved, a child was
 * added), and an item that joined or left the feed without joining or
 * leaving the served items is among `changed`: the journal confirms each
 * candidate with its change key (SPEC 12).
 */
export interface IndexChanges {
  /** The index these are changes against; `undefined`: there was none (every id is added). */
  readonly previous: Index | undefined;
  /** Ids served now and not before. */
  readonly added: readonly string[];
  /** Ids served before and now whose item is another object. */
  readonly changed: readonly string[];
  /** Ids served before and not now. */
  readonly removed: readonly string[];
}

/**
 * The changes from `previous` to `next` (see {@link IndexChanges}): none
 * when they are one index, every id added when there is no previous one.
 *
 * @example
 * ```ts
 * import { indexChanges } from "./changes.ts";
 * import { buildIndex } from "./build_parsed.ts";
 * const settings = {
 *   title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs" }],
 * };
 * const file = (path: string) => ({
 *   plugin: "docs", path, checksum: "00", mtime: 0, attrs: {}, body: "x".repeat(120),
 * });
 * const one = buildIndex([file("a.md")], settings, 0);
 * const two = buildIndex([file("b.md")], settings, 1, { previous: one });
 * indexChanges(one, two); // { previous: one, added: ["docs_doc_b"], changed: [], removed: ["docs_doc_a"] }
 * ```
 */
export function indexChanges(previous: Index | undefined, next: Index): IndexChanges {
  if (previous === undefined) {
    return { previous, added: next.items.map((item) => item.id), changed: [], removed: [] };
  }
  if (previous === next) return { previous, added: [], changed: [], removed: [] };
  const before = previous.byId;
  const after = next.byId;
  const added: string[] = [];
  const changed: string[] = [];
  for (const [id, item] of after) {
    const old = before.get(id);
    if (old === undefined) added.push(id);
    else if (old !== item) changed.push(id);
  }
  const removed: string[] = [];
  for (const id of before.keys()) if (!after.has(id)) removed.push(id);
  return { previous, added, changed, removed };
}
