// The answer to `since` (SPEC 12): what entered or changed after a cursor,
// what left, where the next sync starts, and the link to the next page.
import { feedHead, joinItems, seedBytesOf } from "../feed/feed_bytes.ts";
import { itemJson } from "../feed/item_json.ts";
import { type Plan, problem, TYPES } from "../feed/plan.ts";
import { extrasReader, renderWithBodies } from "../feed/with_bodies.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { Shape } from "../index/shape.ts";
import { byteWriter } from "../util/byte_writer.ts";
import { formatTimestamp } from "../util/dates.ts";
import { type Cursor, formatCursor } from "./cursor.ts";
import { changesSince, cursorProblem } from "./changes_since.ts";
import type { JournalState } from "./state.ts";

/** What a `since` request asks (SPEC 12: it combines with `type`, `category`, `limit` and a shape). */
export interface SinceRequest {
  readonly index: Index;
  /** The journal as of `index`. */
  readonly journal: JournalState;
  readonly base: string;
  readonly since: Cursor;
  readonly type?: string;
  readonly category?: string;
  readonly lang?: string;
  readonly version?: string;
  readonly limit?: number;
  readonly shape: Shape;
  /** The answer's one name (the same for every spelling of the request). */
  readonly key: string;
  /** The request's own query: the next page's link keeps its spelling. */
  readonly params: URLSearchParams;
}

const encoder = new TextEncoder();

/**
 * The plan of a `since` answer (SPEC 12): a `410` for a cursor the journal
 * cannot answer; else `meta` (with `cursor` and `more`), `data` (the
 * current form of every item that entered or changed, each id once, in
 * change order), `deleted` (every id that left and that a client at the
 * cursor holds) and, while changes remain, `Link: rel="next"`. Items with
 * the seed's fields are copied out of the full feed's bytes.
 *
 * @example
 * ```ts
 * import { sincePlan } from "./since.ts";
 * import { SEED_SHAPE } from "../index/shape.ts";
 * declare const index: import("../index/build.ts").Index;
 * declare const journal: import("./state.ts").JournalState;
 * const plan = sincePlan({
 *   index, journal, base: "https://example.com", since: { journal: undefined, seq: 0 },
 *   shape: SEED_SHAPE, key: "feed?since=.0", params: new URLSearchParams("since=0"),
 * });
 * ```
 */
export function sincePlan(r: SinceRequest): Plan {
  const gone = cursorProblem(r.journal, r.since);
  if (gone) return problem(410, `${gone}; sync again from since=0`);
  const answer = changesSince(r.journal, r.since.seq, r, r.limit);
  const items: Item[] = [];
  const deleted: { id: string; at: number }[] = [];
  for (const change of answer.changes) {
    if (change.deleted !== null) deleted.push({ id: change.id, at: change.deleted });
    else {
      // The journal records the index's feed: an id it names is in that feed.
      const item = r.index.feedById.get(change.id);
      if (item) items.push(item);
    }
  }
  const cursor = formatCursor(r.journal.id, answer.cursor);
  const head = feedHead(items.length, answer.total, r.base, r.index.generated, cursor, answer.more);
  const tail = changesTail(deleted);
  let headers: Record<string, string> | undefined;
  if (answer.more) {
    const query = new URLSearchParams(r.params);
    query.set("since", cursor);
    headers = { Link: `<${r.base}/api/content.json?${query}>; rel="next"` };
  }
  const { shape, index, base } = r;
  return {
    kind: "answer",
    key: r.key,
    readsFiles: shape.needs !== undefined,
    type: TYPES.json,
    ...(headers ? { headers } : {}),
    async make(making) {
      if (shape.needs) {
        const stale: Item[] = [];
        const body = await renderWithBodies(
          head,
          items,
          tail,
          base,
          shape,
          extrasReader(making, shape.needs, stale),
          seedBytesOf(index, making.fullFeed),
        );
        return body ? { body } : { stale };
      }
      if (shape.seed) {
        return {
          body: joinItems(
            index,
            items,
            making.fullFeed(),
            encoder.encode(head),
            encoder.encode(tail),
          ),
        };
      }
      const out = byteWriter(1024);
      out.write(head);
      items.forEach((item, i) => {
        if (i > 0) out.write(",");
        out.write(itemJson(item, base, shape));
      });
      out.write(tail);
      return { body: out.done() };
    },
  };
}

/**
 * The tail of a `since` answer after its `data`: `deleted` and the closing braces.
 *
 * @example
 * ```ts
 * import { changesTail } from "./since.ts";
 * changesTail([{ id: "docs_doc_old", at: 0 }]);
 * // '],"deleted":[{"id":"docs_doc_old","deleted":"1970-01-01 00:00:00"}]}'
 * ```
 */
export function changesTail(
  deleted: readonly { readonly id: string; readonly at: number }[],
): string {
  let tail = '],"deleted":[';
  deleted.forEach(({ id, at }, i) => {
    tail += `${i > 0 ? "," : ""}{"id":${JSON.stringify(id)},"deleted":${
      JSON.stringify(formatTimestamp(at))
    }}`;
  });
  return `${tail}]}`;
}
