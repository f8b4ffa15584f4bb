import type { Item } from "../index/item.ts";
import type { ItemExtras } from "../index/item_fields.ts";
import type { FileNeeds, Shape } from "../index/shape.ts";
import { byteWriter } from "../util/byte_writer.ts";
import { writeJsonString } from "../util/json_bytes.ts";
import type { SeedBytes } from "./feed_bytes.ts";
import type { Making } from "./plan.ts";

/** Reads what a shape asks of some items' files; `undefined` when a file changed under them. */
export type ExtrasReader = (
  items: readonly Item[],
) => Promise<ReadonlyMap<Item, ItemExtras> | undefined>;

/**
 * The {@link ExtrasReader} of an answer being made: what `needs` asks of
 * the items' files, or `undefined` once a file changed since the index was
 * built (that file's items go to `stale`: never one version's body under
 * another version's fields).
 *
 * @example
 * ```ts
 * import { extrasReader } from "./with_bodies.ts";
 * declare const making: import("./plan.ts").Making;
 * const stale: import("../index/item.ts").Item[] = [];
 * const read = extrasReader(making, { body: true, text: false, sections: false }, stale);
 * ```
 */
export function extrasReader(making: Making, needs: FileNeeds, stale: Item[]): ExtrasReader {
  return async (items) => {
    const got = await making.gather(items, needs);
    stale.push(...got.changed);
    return got.changed.length > 0 ? undefined : got.extras;
  };
}

/** Items whose bodies {@link renderWithBodies} reads at once: the next run's reads go on while one is written. */
const RUN = 256;

/**
 * A feed document (SPEC 6.2) or a `since` answer (SPEC 12) whose items
 * hold fields made from their files (`body`, `text`, `sections`): `head`,
 * the items and `tail`, with the files read `RUN` items at a time, each
 * run's reads under way while the run before is written. Only two runs'
 * bodies are held at once, not every body of the feed. A body read as
 * bytes is written as JSON straight from them. `undefined` when `read`
 * reports a file changed.
 *
 * @param seed the seed's fields of each item as the full feed holds them,
 *   copied where the shape starts with them
 *
 * @example
 * ```ts
 * import { renderWithBodies } from "./with_bodies.ts";
 * import { shapeOf } from "../index/shape.ts";
 * declare const items: readonly import("../index/item.ts").Item[];
 * const bytes = await renderWithBodies('{"data":[', items, "]}", "https://example.com",
 *   shapeOf(["id", "body"]), (run) => Promise.resolve(new Map(run.map((item) => [item, { body: item.body }]))));
 * ```
 */
export async function renderWithBodies(
  head: string,
  items: readonly Item[],
  tail: string,
  base: string,
  shape: Shape,
  read: ExtrasReader,
  seed?: SeedBytes,
): Promise<Uint8Array | undefined> {
  const { fields, keys } = shape;
  // The seed's fields first, in the full feed's order: each item's are copied from there.
  const copied = seed ? shape.seedPrefix : 0;
  // Bodies are most of the bytes, and their size is known only once read: room for one run
  // first, then for all at the size of the runs so far.
  const out = byteWriter(head.length * 3 + Math.min(items.length, RUN) * 8192 + tail.length * 3);
  out.write(head);
  let next = read(items.slice(0, RUN));
  for (let start = 0; start < items.length; start += RUN) {
    const extras = await next;
    if (extras === undefined) return undefined;
    if (start + RUN < items.length) next = read(items.slice(start + RUN, start + 2 * RUN));
    // After the first run, room for all at the size of the runs so far, and a little more:
    // one early growth, instead of growths late in a buffer of tens of megabytes.
    if (start > 0) out.room(Math.ceil(((out.at / start) * (items.length - start)) * 1.02));
    const end = Math.min(items.length, start + RUN);
    // The text between two bodies is gathered and encoded at once: one encode
    // per field cost more than the bodies' escaping on a whole feed.
    let text = "";
    for (let i = start; i < end; i++) {
      const item = items[i];
      const extra = extras.get(item) ?? {};
      const seedPart = copied ? seed!(item) : undefined;
      if (i > 0) text += ",";
      if (seedPart) {
        out.write(text);
        text = "";
        out.copy(seedPart);
      }
      for (let f = seedPart ? copied : 0; f < fields.length; f++) {
        text += keys[f];
        if (fields[f].needs === "body" && extra.body === undefined && extra.bodyBytes) {
          out.write(text);
          text = "";
          writeJsonString(out, ...extra.bodyBytes);
        } else text += fields[f].json(item, base, extra);
      }
      text += fields.length === 0 ? "{}" : "}";
    }
    out.write(text);
  }
  if (items.length === 0 && (await next) === undefined) return undefined;
  out.write(tail);
  return out.done();
}
