// What a route answers, as a value (SPEC 6-9, 12, 14): the routes are pure
// functions that return a plan, and `http/` turns a plan into a `Response`
// (ETag, 304, compression, CORS, the byte-bounded cache). The MCP tools and
// anything else that wants a route's answer use the same plans.
import type { Item } from "../index/item.ts";
import type { ItemExtras } from "../index/item_fields.ts";
import type { FileNeeds } from "../index/shape.ts";
import type { FeedBytes } from "./feed_bytes.ts";

/** What {@link Making.gather} found: each item's extras, and the items whose files changed. */
export interface Gathered {
  readonly extras: Map<Item, ItemExtras>;
  /** Items whose file is no longer the one indexed (nothing of them was read). */
  readonly changed: readonly Item[];
}

/** What making an answer's body may use beyond the index: its items' files, and kept answers. */
export interface Making {
  /** Reads what `needs` asks of each item's file (body, text, sections). */
  gather(items: readonly Item[], needs: FileNeeds): Promise<Gathered>;
  /** The full feed of the index for the answer's base URL and cursor, made once and kept. */
  fullFeed(): FeedBytes;
}

/** A body as made: its bytes, or the items whose files changed under it (nothing to send). */
export type Made =
  | { readonly body: string | Uint8Array; readonly stale?: undefined }
  | { readonly stale: readonly Item[]; readonly body?: undefined };

/** An answer: made once per key, then sent to every request with that key. */
export interface AnswerPlan {
  readonly kind: "answer";
  /**
   * The answer's name: the same for every request whose body is the same,
   * whatever its spelling (the cache's key, and single flight's).
   */
  readonly key: string;
  /** Its `Content-Type`. */
  readonly type: string;
  /** Headers of this request's answer alone (a page's `Link`, in the request's own spelling). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Whether making it reads files (bodies, texts, sections): such answers
   * are made a few at a time, the others as soon as they are asked for.
   */
  readonly readsFiles?: boolean;
  /**
   * The items the answer is made of, when it depends on nothing else of the
   * index (an item's forms): kept across a new index in which each of them
   * is the same item (SPEC 17: a change keeps every answer that does not
   * hold a changed item). Absent: the answer is of its index alone.
   */
  readonly holds?: readonly Item[];
  /** Makes the body, when no kept answer has the key. */
  readonly make: (making: Making) => Made | Promise<Made>;
}

/** An error answer (RFC 9457 problem document). */
export interface ProblemPlan {
  readonly kind: "problem";
  readonly status: number;
  /** The problem's `detail`: one sentence for the client. */
  readonly detail: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What a route answers. */
export type Plan = AnswerPlan | ProblemPlan;

/**
 * A problem plan.
 *
 * @example
 * ```ts
 * import { problem } from "./plan.ts";
 * problem(400, 'limit must be an integer from 1 to 10000, got "abc"').status; // 400
 * ```
 */
export function problem(
  status: number,
  detail: string,
  headers?: Record<string, string>,
): ProblemPlan {
  return { kind: "problem", status, detail, ...(headers ? { headers } : {}) };
}

/**
 * An answer plan whose body is made from the index alone.
 *
 * @example
 * ```ts
 * import { answer } from "./plan.ts";
 * answer("llms", "text/plain; charset=utf-8", () => "# Docs\n").key; // "llms"
 * ```
 */
export function answer(
  key: string,
  type: string,
  body: () => string | Uint8Array,
  headers?: Record<string, string>,
): AnswerPlan {
  return {
    kind: "answer",
    key,
    type,
    ...(headers ? { headers } : {}),
    make: () => ({ body: body() }),
  };
}

/**
 * The `503` of an answer whose files changed since the index was built
 * (SPEC 10: the index catches up with them, and the client tries again).
 *
 * @example
 * ```ts
 * import { staleProblem } from "./plan.ts";
 * declare const item: import("../index/item.ts").Item;
 * staleProblem([item]).headers; // { "Retry-After": "1" }
 * ```
 */
export function staleProblem(stale: readonly Item[]): ProblemPlan {
  return problem(503, `${stale[0].file} changed while it was read; try again`, {
    "Retry-After": "1",
  });
}

/** `Content-Type`s of the answers. */
export const TYPES = {
  json: "application/json; charset=utf-8",
  xml: "application/xml; charset=utf-8",
  text: "text/plain; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  jsonFeed: "application/feed+json; charset=utf-8",
} as const;
