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
import { type Cursor, formatCursor, isListing } from "./cursor.ts";
import { changesSince, cursorProblem } from "./changes_since.ts";
import { listingPage } from "./listing.ts";
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
 * cursor holds) and, while changes remain, `Link: rel="next"`. `since=0`
 * is a listing: the feed as of the journal's head then, page by page
 * (`listing.ts`), and then the changes after that head. Items with the
 * seed's fields are copied out of the full feed's bytes.
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
  const { items, deleted, total, cursor, more } = isListing(r.since)
    ? listingAnswer(r)
    : changesAnswer(r);
  const head = feedHead(items.length, total, r.base, r.index.generated, cursor, more);
  const tail = changesTail(deleted);
  let headers: Record<string, string> | undefined;
  if (more) {
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

/** What a `since` answer holds, before it is written. */
interface SinceAnswer {
  readonly items: readonly Item[];
  readonly deleted: readonly { readonly id: string; readonly at: number }[];
  readonly total: number;
  readonly cursor: string;
  readonly more: boolean;
}

/** The changes after a cursor that is not a listing's. */
function changesAnswer(r: SinceRequest): SinceAnswer {
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
  return {
    items,
    deleted,
    total: answer.total,
    cursor: formatCursor(r.journal.id, answer.cursor),
    more: answer.more,
  };
}

/**
 * A page of a listing (`since=0`, or a cursor inside a listing): the feed as
 * of the head it began at, no deletions; once done, its cursor is that head,
 * and `more` says whether changes came after it. `total` counts what the
 * client has still to fetch: the rest of the listing and the changes after it.
 */
function listingAnswer(r: SinceRequest): SinceAnswer {
  const at = r.since.journal === undefined ? r.journal.head : r.since.seq;
  const page = listingPage(r.journal, at, r.since.listed ?? 0, r, r.limit);
  const after = changesSince(r.journal, at, r).total;
  const items: Item[] = [];
  for (const id of page.ids) {
    const item = r.index.feedById.get(id);
    if (item) items.push(item);
  }
  return {
    items,
    deleted: [],
    total: page.total + after,
    cursor: page.more ? formatCursor(r.journal.id, at, page.last) : formatCursor(r.journal.id, at),
    more: page.more || after > 0,
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
