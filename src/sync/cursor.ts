/**
 * A sync cursor (SPEC 12): the journal it belongs to and a position in it,
 * as `meta.cursor` serves it: `<journal id>.<sequence number>`, or, inside
 * a listing (a paged `since=0`), `<journal id>.<head>_<position>`. `0` is
 * the start of every journal.
 */
export interface Cursor {
  /** The journal's id; `undefined` for `0`, which every journal answers. */
  readonly journal: string | undefined;
  /**
   * The position: changes after it are the answer. Inside a listing, the
   * journal's head when the listing began: the listing is of the feed as
   * of it, and the changes after it follow the listing.
   */
  readonly seq: number;
  /**
   * Inside a listing only: the position of the last item listed (below
   * `seq`); the listing goes on with the items after it.
   */
  readonly listed?: number;
}

const CURSOR = /^([0-9a-z]{1,32})\.(0|[1-9]\d{0,15})(?:_([1-9]\d{0,15}))?$/;

/**
 * A cursor's text as `meta.cursor` holds it; with `listed`, a cursor inside
 * the listing of the feed as of `seq` (a paged `since=0`).
 *
 * @example
 * ```ts
 * import { formatCursor } from "./cursor.ts";
 * formatCursor("k3v9q2", 1204); // "k3v9q2.1204"
 * formatCursor("k3v9q2", 1204, 318); // "k3v9q2.1204_318"
 * ```
 */
export function formatCursor(journal: string, seq: number, listed?: number): string {
  return listed === undefined ? `${journal}.${seq}` : `${journal}.${seq}_${listed}`;
}

/**
 * Parses a `since` value: `0`, or a cursor from `meta.cursor`; `undefined`
 * when it is neither (a 400). A listing's position must be below its head:
 * the server never gives another.
 *
 * @example
 * ```ts
 * import { parseCursor } from "./cursor.ts";
 * parseCursor("0"); // { journal: undefined, seq: 0 }
 * parseCursor("k3v9q2.1204"); // { journal: "k3v9q2", seq: 1204 }
 * parseCursor("k3v9q2.1204_318"); // { journal: "k3v9q2", seq: 1204, listed: 318 }
 * parseCursor("yesterday"); // undefined
 * ```
 */
export function parseCursor(value: string): Cursor | undefined {
  if (value === "0") return { journal: undefined, seq: 0 };
  const match = CURSOR.exec(value);
  if (!match) return undefined;
  const seq = Number(match[2]);
  if (!Number.isSafeInteger(seq)) return undefined;
  if (match[3] === undefined) return { journal: match[1], seq };
  const listed = Number(match[3]);
  return Number.isSafeInteger(listed) && listed < seq
    ? { journal: match[1], seq, listed }
    : undefined;
}

/**
 * Whether a cursor asks for a listing (SPEC 12): `0` (a listing's start) or
 * a cursor inside one.
 *
 * @example
 * ```ts
 * import { isListing, parseCursor } from "./cursor.ts";
 * isListing(parseCursor("0")!); // true
 * isListing(parseCursor("k3v9q2.1204_318")!); // true
 * isListing(parseCursor("k3v9q2.1204")!); // false
 * ```
 */
export function isListing(cursor: Cursor): boolean {
  return cursor.journal === undefined || cursor.listed !== undefined;
}
