import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { forEachConcurrently } from "../util/concurrency.ts";
import { fold } from "../util/slugify.ts";

/**
 * Whether a folded search term occurs in an item's title, description or
 * body, case and accents ignored (SPEC 6.1 `search`).
 */
export type Contains = (item: Item, term: string) => boolean;

/** Reads an item's body when the index does not hold it; `undefined` when its file changed. */
export type ReadBody = (item: Item) => Promise<string | undefined>;

/**
 * Folded title and description, and folded body, apart: a term has no
 * whitespace, so it occurs in `title\ndescription\nbody` exactly when it
 * occurs in one of the parts (folding is per character), and the body's
 * fold, which depends on the file's bytes alone, can be kept by checksum.
 */
function headOf(item: Item): string {
  return fold(`${item.title}\n${item.description}`);
}

/**
 * {@link Contains} for items that hold their bodies (an index built from
 * parsed files, or a snapshot), folding the item's text on every call: what
 * a caller of the pure `filterItems` gets by default. A service keeps the
 * folded texts instead ({@link createSearchTexts}).
 *
 * @throws {TypeError} for an item without its body (a server's index)
 *
 * @example
 * ```ts
 * import { heldBodyContains } from "./search.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "cafe.md", checksum: "00", mtime: 0, attrs: {}, body: "Un café.",
 * }], { title: undefined, url: undefined, api: true, sitemap: false, plugins: [{ name: "docs", path: "docs" }] }, 0);
 * heldBodyContains(index.items[0], "cafe"); // true
 * ```
 */
export function heldBodyContains(item: Item, term: string): boolean {
  if (item.body === undefined) {
    throw new TypeError(`${item.id} holds no body: search it with createSearchTexts`);
  }
  return headOf(item).includes(term) || fold(item.body).includes(term);
}

/**
 * Makes the search texts of an index's feed items on the first search of
 * that index, reading the bodies the index does not hold with `readBody`,
 * 32 at a time. What it keeps is bounded by the content: the folded texts
 * of the last index searched, a body's by the file's checksum, so the next
 * index reuses what did not change and after an edit only the changed files
 * are read again. A file that changed since its index was built (`readBody`
 * gives `undefined`) is searched by title and description until the index
 * catches up, and `stale` is told about all such files at once.
 *
 * @example
 * ```ts
 * import { createSearchTexts } from "./search.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([], { title: undefined, url: undefined, api: true, sitemap: false, plugins: [] }, 0);
 * const textsOf = createSearchTexts(async (item) => item.body);
 * const contains = await textsOf(index);
 * ```
 */
export function createSearchTexts(
  readBody: ReadBody,
  stale: (items: readonly Item[]) => void = () => {},
): (index: Index) => Promise<Contains> {
  /** The last index searched and its texts: one at a time, so an index swap lets the old go. */
  let last: { index: Index; contains: Promise<Contains> } | undefined;
  /** Folded titles and descriptions: an unchanged item is the same object in the next index. */
  let heads = new WeakMap<Item, string>();
  /** Folded bodies by checksum, of the index whose texts were made last. */
  let bodies = new Map<string, string>();

  const make = async (index: Index): Promise<Contains> => {
    const known = bodies;
    const next = new Map<string, string>();
    const nextHeads = new WeakMap<Item, string>();
    const todo: Item[] = [];
    for (const item of index.feed) {
      nextHeads.set(item, heads.get(item) ?? headOf(item));
      const body = known.get(item.checksum) ??
        (item.body === undefined ? undefined : fold(item.body));
      if (body === undefined) todo.push(item);
      else next.set(item.checksum, body);
    }
    let cursor = 0;
    const changed: Item[] = [];
    await forEachConcurrently(() => todo[cursor++], async (item) => {
      const body = await readBody(item);
      if (body === undefined) changed.push(item);
      else next.set(item.checksum, fold(body));
    });
    // One re-index for all of them, not one queued per file.
    if (changed.length > 0) stale(changed);
    bodies = next;
    heads = nextHeads;
    return (item, term) =>
      nextHeads.get(item)!.includes(term) || (next.get(item.checksum)?.includes(term) ?? false);
  };

  return (index) => {
    if (last?.index !== index) {
      const contains = make(index);
      last = { index, contains };
      contains.catch(() => {
        if (last?.contains === contains) last = undefined;
      });
    }
    return last.contains;
  };
}
