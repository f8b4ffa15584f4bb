import { type FeedBytes, renderFullFeed } from "../feed/render.ts";
import type { Index } from "../index/build.ts";
import { formatCursor } from "../sync/cursor.ts";
import type { JournalState } from "../sync/state.ts";
import {
  answerReady,
  represent,
  type Representation,
  sendRepresentation,
} from "./representation.ts";
import { createResponseCache, DEFAULT_CACHE_BYTES } from "./response_cache.ts";
import type { HttpSettings } from "./settings.ts";

/** Longer request URLs are answered 414, and never remembered. */
export const MAX_URL = 8192;
/** Request URLs remembered for an answer without routing (each at most {@link MAX_URL} long). */
const URL_ALIASES = 256;

/** What a route asks the store for: which index, which base URL, which request. */
export interface AnswerContext {
  readonly request: Request;
  readonly index: Index;
  /** The journal as of `index` (`meta.cursor`). */
  readonly journal: JournalState;
  /** The base URL links are rendered with. */
  readonly base: string;
}

/** A body a route makes, the first time its answer is asked for. */
export interface Body {
  readonly type: string;
  readonly body: string | Uint8Array;
}

/** The answers of one index, made once and sent many times (SPEC 9 "Bounded memory"). */
export interface AnswerStore {
  /** Forgets every answer when the index changed (call first on each request). */
  follow(index: Index): void;
  /**
   * Sends the answer kept under `key` (the same for every request whose
   * body is the same), making it with `make` first when there is none.
   *
   * @param extra headers of this request alone (a page's `Link`)
   */
  send(
    context: AnswerContext,
    key: string,
    make: () => Body,
    extra?: Record<string, string>,
  ): Promise<Response>;
  /** Whether an answer is kept under `key` (the item route then reads no body). */
  has(context: AnswerContext, key: string): boolean;
  /** The full feed's bytes for the context's base URL, made once per index and base. */
  fullFeed(context: AnswerContext): FeedBytes;
  /**
   * The answer for a request URL seen before, without routing or waiting;
   * `undefined` when there is none ready.
   */
  ready(request: Request, index: Index): Response | undefined;
}

/** A kept answer: its representation once made, and its promise while it is made. */
interface Slot {
  readonly pending: Promise<Representation>;
  made?: Representation;
}

/**
 * Creates the store of answers a handler keeps: a response cache bounded by
 * bytes, one representation per answer, and outside that budget the full
 * feed of the index's own base URL (the configured one, else the first one
 * asked for), made once per index: it is the index's own cost, and evicting
 * the busiest answer would make it the most expensive. Request URLs seen
 * before are remembered (keys only) for an answer without routing.
 *
 * @example
 * ```ts
 * import { createAnswerStore } from "./answer_store.ts";
 * const store = createAnswerStore({ cors: true, cacheControl: "public, max-age=60" }, undefined);
 * ```
 */
export function createAnswerStore(
  settings: HttpSettings & { readonly cacheBytes?: number },
  configuredBase: string | undefined,
): AnswerStore {
  const budget = settings.cacheBytes ?? DEFAULT_CACHE_BYTES;
  // Evicted answers are garbage the collector may not hurry to take (their
  // bytes live outside the JavaScript heap): the runtime is asked to collect
  // once a budget's worth has gone (src/adapters/bun.ts).
  let dropped = 0;
  const cache = createResponseCache<Slot | FeedBytes>(budget, (bytes) => {
    dropped += bytes;
    if (dropped >= budget && settings.tuning?.collectGarbage) {
      dropped = 0;
      settings.tuning.collectGarbage();
    }
  });
  const urls = new Map<string, { readonly key: string; readonly extra?: Record<string, string> }>();
  /** The index whose answers are kept. */
  let current: Index | undefined;
  let own: { base: string; key: string; full?: FeedBytes; feed?: Slot } | undefined;
  const ownFor = (base: string) => ({ base, key: `${base}\nfeed` });
  const isOwn = (c: AnswerContext) => {
    if (c.index !== current) return false;
    own ??= ownFor(c.base);
    return own.base === c.base;
  };
  const lookup = (key: string): Slot | undefined =>
    key === own?.key ? own.feed : cache.get(key) as Slot | undefined;

  return {
    follow(index) {
      if (index === current) return;
      current = index;
      cache.clear();
      urls.clear();
      own = configuredBase === undefined ? undefined : ownFor(configuredBase);
    },
    has: (c, key) => c.index === current && lookup(`${c.base}\n${key}`) !== undefined,
    fullFeed(c) {
      const cursor = formatCursor(c.journal.id, c.journal.head);
      if (isOwn(c)) return own!.full ??= renderFullFeed(c.index, c.base, cursor);
      if (c.index !== current) return renderFullFeed(c.index, c.base, cursor);
      const key = `${c.base}\nfeed-bytes`;
      let full = cache.get(key) as FeedBytes | undefined;
      if (!full) {
        full = renderFullFeed(c.index, c.base, cursor);
        cache.set(key, full, full.bytes.length + full.starts.byteLength);
      }
      return full;
    },
    async send(c, key, make, extra) {
      const full = `${c.base}\n${key}`;
      const usable = c.index === current;
      const pinned = usable && key === "feed" && isOwn(c);
      let slot = usable ? lookup(full) : undefined;
      if (!slot) {
        const { type, body } = make();
        const made: Slot = { pending: represent(type, body, settings, c.index.builtAt) };
        slot = made;
        if (pinned) own!.feed = made;
        else if (usable) cache.set(full, made, 0);
        made.pending.then((rep) => {
          made.made = rep;
          if (!pinned) cache.resize(full, made, rep.held());
        }, () => {
          if (!pinned) cache.resize(full, made, 0);
        });
      }
      const rep = await slot.pending;
      const response = await sendRepresentation(c.request, rep, settings, extra);
      if (!pinned && usable) cache.resize(full, slot, rep.held()); // an encoding may have been made
      if (usable && c.request.url.length <= MAX_URL) {
        if (urls.size >= URL_ALIASES) urls.delete(urls.keys().next().value!);
        urls.set(c.request.url, { key: full, extra });
      }
      return response;
    },
    ready(request, index) {
      if (index !== current) return undefined;
      const alias = urls.get(request.url);
      const made = alias && lookup(alias.key)?.made;
      if (!made) return undefined;
      try {
        return answerReady(request, made, settings, alias.extra);
      } catch {
        return undefined; // answered through the router and its error handling
      }
    },
  };
}
