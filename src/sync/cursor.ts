/**
 * A sync cursor (SPEC 12): the journal it belongs to and a position in it,
 * as `meta.cursor` serves it: `<journal id>.<sequence number>`. `0` is the
 * start of every journal.
 */
export interface Cursor {
  /** The journal's id; `undefined` for `0`, which every journal answers. */
  readonly journal: string | undefined;
  /** The position: changes after it are the answer. */
  readonly seq: number;
}

const CURSOR = /^([0-9a-z]{1,32})\.(0|[1-9]\d{0,15})$/;

/**
 * A cursor's text as `meta.cursor` holds it.
 *
 * @example
 * ```ts
 * import { formatCursor } from "./cursor.ts";
 * formatCursor("k3v9q2", 1204); // "k3v9q2.1204"
 * ```
 */
export function formatCursor(journal: string, seq: number): string {
  return `${journal}.${seq}`;
}

/**
 * Parses a `since` value: `0`, or a cursor from `meta.cursor`; `undefined`
 * when it is neither (a 400).
 *
 * @example
 * ```ts
 * import { parseCursor } from "./cursor.ts";
 * parseCursor("0"); // { journal: undefined, seq: 0 }
 * parseCursor("k3v9q2.1204"); // { journal: "k3v9q2", seq: 1204 }
 * parseCursor("yesterday"); // undefined
 * ```
 */
export function parseCursor(value: string): Cursor | undefined {
  if (value === "0") return { journal: undefined, seq: 0 };
  const match = CURSOR.exec(value);
  if (!match) return undefined;
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { journal: match[1], seq } : undefined;
}
