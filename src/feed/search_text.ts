import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { inLanes } from "../lanes.ts";
import { fold } from "../slugify.ts";

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
 * parsed files): each item's folded text is made on its first search and
 * kept while the item lives.
 *
 * @throws {TypeError} for an item without its body (a server's index)
 *
 * @example
 * ```ts
 * import { heldTexts } from "./search_text.ts";
 * heldTexts(index.feed[0], "cafe");
 * ```
 */
export function heldTexts(item: Item, term: string): boolean {
  let text = heldFolds.get(item);
  if (text === undefined) {
    if (item.body === undefined) {
      throw new TypeError(`${item.id} holds no body: search it with createSearchTexts`);
    }
    text = fold(`${item.title}\n${item.description}\n${item.body}`);
    heldFolds.set(item, text);
  }
  return text.includes(term);
}

/** Each held item's folded text, made on its first search and kept while the item lives. */
const heldFolds = new WeakMap<Item, string>();

/**
 * Makes the search texts of an index's feed items on the first search of
 * that index, reading the bodies the index does not hold with `readBody`,
 * 32 at a time. A body's fold is kept by the file's checksum and carries
 * over to the next index, so after a change only the changed files are read
 * again. A file that changed since its index was built (`readBody` gives
 * `undefined`) is searched by title and description until the index catches
 * up, and `stale` is told about all such files at once, after the reads.
 *
 * @example
 * ```ts
 * import { createSearchTexts } from "./search_text.ts";
 * const textsOf = createSearchTexts((item) => readBody(`${root}/${item.file}`, item.checksum));
 * const contains = await textsOf(index);
 * contains(index.feed[0], "cafe");
 * ```
 */
export function createSearchTexts(
  readBody: ReadBody,
  stale: (items: readonly Item[]) => void = () => {},
): (index: Index) => Promise<Contains> {
  const made = new WeakMap<Index, Promise<Contains>>();
  /** Folded titles and descriptions: an unchanged item is the same object in the next index. */
  const heads = new WeakMap<Item, string>();
  /** Folded bodies by checksum, of the index whose texts were made last. */
  let bodies = new Map<string, string>();

  const make = async (index: Index): Promise<Contains> => {
    const known = bodies;
    const next = new Map<string, string>();
    const todo: Item[] = [];
    for (const item of index.feed) {
      if (!heads.has(item)) heads.set(item, headOf(item));
      const body = known.get(item.checksum) ??
        (item.body === undefined ? undefined : fold(item.body));
      if (body === undefined) todo.push(item);
      else next.set(item.checksum, body);
    }
    let cursor = 0;
    const changed: Item[] = [];
    await inLanes(() => todo[cursor++], async (item) => {
      const body = await readBody(item);
      if (body === undefined) changed.push(item);
      else next.set(item.checksum, fold(body));
    });
    // One re-index for all of them, not one queued per file.
    if (changed.length > 0) stale(changed);
    bodies = next;
    return (item, term) =>
      heads.get(item)!.includes(term) || (next.get(item.checksum)?.includes(term) ?? false);
  };

  return (index) => {
    let contains = made.get(index);
    if (!contains) {
      contains = make(index);
      made.set(index, contains);
      contains.catch(() => made.delete(index));
    }
    return contains;
  };
}
