import { type FeedBytes, type PreviousFeed, renderFullFeed } from "../feed/feed_bytes.ts";
import { type AnswerPlan, type Making, TYPES } from "../feed/plan.ts";
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { urlWithoutIgnoredParameters } from "../routes/ignored_params.ts";
import { formatCursor } from "../sync/cursor.ts";
import type { JournalState } from "../sync/state.ts";
import { createSingleFlight } from "../util/single_flight.ts";
import {
  answerReady,
  keptRepresentation,
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
/**
 * Answers read from files that are made at once (others wait their turn):
 * each such build holds its answer's bytes while it grows, and two keep
 * both cores busy (the second core reads files while this thread writes).
 */
const READING_BUILDS_AT_ONCE = 2;

/** Which answers a plan is made for: which index, which journal, which base URL. */
export interface AnswerContext {
  readonly index: Index;
  /** The journal as of `index` (`meta.cursor`). */
  readonly journal: JournalState;
  /** The base URL links are rendered with. */
  readonly base: string;
  /**
   * A request a host mounted under a path (`http/mount.ts`): its URL alone
   * does not name its answer, so it is not remembered for {@link AnswerStore.ready}.
   */
  readonly mounted?: boolean;
}

/** What the store reads files with, for the plans that need them. */
export type Gather = Making["gather"];

/** The answers of one index, made once and sent many times (SPEC 9 "Bounded memory"). */
export interface AnswerStore {
  /** Forgets every answer when the index changed (call first on each request). */
  follow(index: Index): void;
  /**
   * The representation of a plan's answer: the one kept under its key, or
   * made once, however many ask for it at once, and kept; or the items
   * whose files changed since the index was built (nothing is kept then).
   */
  made(
    context: AnswerContext,
    plan: AnswerPlan,
  ): Promise<Representation | { readonly stale: readonly Item[] }>;
  /** Answers a request with a representation, and remembers its URL for {@link ready}. */
  send(
    request: Request,
    context: AnswerContext,
    plan: AnswerPlan,
    rep: Representation,
  ): Promise<Response>;
  /** The full feed's bytes for the context's base URL, made once per index and base. */
  fullFeed(context: AnswerContext): FeedBytes;
  /**
   * The answer for a request URL seen before, without routing or waiting;
   * `undefined` when there is none ready.
   */
  ready(request: Request, index: Index): Response | undefined;
  /**
   * The full feed of `index`, when it is the index followed now, as it was served (its bytes,
   * offsets, ETag and the encodings made), for a server to keep when it
   * stops; `undefined` when none was served.
   */
  servedFeed(index: Index): KeptFeed | undefined;
  /**
   * The full feed of `index` for a stopping server to keep: the one served
   * ({@link servedFeed}), else written now for the index's own base URL
   * (the configured one, else the one asked for), its ETag from `etagOf`
   * (the quoted ETag `represent` gives those bytes) and no other encoding,
   * which the next start makes when a client first asks for it. A server
   * whose clients only asked for pages and changes keeps it too, so its
   * next start answers with the same build time and ETags. `undefined`
   * when no base URL is known.
   */
  feedToKeep(
    index: Index,
    journal: JournalState,
    etagOf: (bytes: Uint8Array) => string,
  ): KeptFeed | undefined;
  /**
   * Makes `index` the one followed, with its full feed for `feed.base`
   * the one kept (`pipeline/feed_image.ts`): its bytes are served, not
   * written again. The caller has checked that they are the index's.
   */
  seedFeed(index: Index, feed: KeptFeed): void;
  /**
   * Makes `index` the one followed, with `previous` the earlier full feed
   * its own full feed is written from, for `previous.base`: the items it
   * places are copied, not written again.
   */
  seedPrevious(index: Index, previous: PreviousFeed & { readonly base: string }): void;
}

/** A full feed as served: what a server keeps across a restart. */
export interface KeptFeed {
  readonly base: string;
  readonly type: string;
  readonly full: FeedBytes;
  readonly etag: string;
  readonly encoded: readonly { coding: string; bytes: Uint8Array; etag: string }[];
}

/** A kept answer: its representation once made, and its promise while it is made. */
interface Slot {
  readonly pending: Promise<Representation>;
  made?: Representation;
  /** The items it is made of alone (its plan's `holds`): it outlives an index that keeps them. */
  readonly holds?: readonly Item[];
}

/**
 * Creates the store of answers a handler keeps: a response cache bounded by
 * bytes, one representation per answer, and outside that budget the full
 * feed of the index's own base URL (the configured one, else the first one
 * asked for), made once per index: it is the index's own cost, and evicting
 * the busiest answer would make it the most expensive. An answer not kept
 * is made once however many requests ask for it at once (they share its
 * bytes), and at most two answers read from files are made at once. Request
 * URLs seen before are remembered (keys only) for an answer without routing.
 *
 * @example
 * ```ts
 * import { createAnswerStore } from "./answer_store.ts";
 * const store = createAnswerStore({ cors: true, cacheControl: "public, max-age=60" }, undefined,
 *   () => Promise.resolve({ extras: new Map(), changed: [] }));
 * ```
 */
export function createAnswerStore(
  settings: HttpSettings & { readonly cacheBytes?: number },
  configuredBase: string | undefined,
  gather: Gather,
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
  // One build per answer: concurrent requests for an answer not made yet wait for one build.
  const reading = createSingleFlight<Index>(READING_BUILDS_AT_ONCE);
  const computing = createSingleFlight<Index>(Infinity);
  /** The index whose answers are kept. */
  let current: Index | undefined;
  let own: { base: string; key: string; full?: FeedBytes; feed?: Slot } | undefined;
  /**
   * The last index's own full feed, until the new one's is made from it:
   * the items the two share are copied, not written again (SPEC 17).
   */
  let before: PreviousFeed & { readonly base: string } | undefined;
  const ownFor = (base: string) => ({ base, key: `${base}\nfeed` });
  const isOwn = (c: AnswerContext) => {
    if (c.index !== current) return false;
    own ??= ownFor(c.base);
    return own.base === c.base;
  };
  const lookup = (key: string): Slot | undefined =>
    key === own?.key ? own.feed : cache.get(key) as Slot | undefined;
  const fullFeed = (c: AnswerContext): FeedBytes => {
    const cursor = formatCursor(c.journal.id, c.journal.head);
    if (isOwn(c)) {
      if (own!.full) return own!.full;
      const from = before?.base === c.base ? before : undefined;
      before = undefined;
      return own!.full = renderFullFeed(c.index, c.base, cursor, from);
    }
    if (c.index !== current) return renderFullFeed(c.index, c.base, cursor);
    const key = `${c.base}\nfeed-bytes`;
    let full = cache.get(key) as FeedBytes | undefined;
    if (!full) {
      full = renderFullFeed(c.index, c.base, cursor);
      cache.set(key, full, full.bytes.length + full.starts.byteLength);
    }
    return full;
  };
  /** Makes a plan's answer and keeps it (when its index is the current one). */
  const build = async (c: AnswerContext, plan: AnswerPlan, full: string) => {
    const made = await plan.make({ gather, fullFeed: () => fullFeed(c) });
    if (made.stale) return { stale: made.stale };
    const usable = c.index === current;
    const pinned = usable && plan.key === "feed" && isOwn(c);
    const slot: Slot = {
      pending: represent(plan.type, made.body, settings, c.index.builtAt),
      ...(plan.holds ? { holds: plan.holds } : {}),
    };
    if (pinned) own!.feed = slot;
    else if (usable) cache.set(full, slot, 0);
    slot.pending.then((rep) => {
      slot.made = rep;
      if (!pinned) cache.resize(full, slot, rep.held());
    }, () => {
      if (!pinned) cache.resize(full, slot, 0);
    });
    return slot;
  };

  return {
    servedFeed(index) {
      const rep = own?.feed?.made;
      if (index !== current || !own?.full || !rep || rep.bytes !== own.full.bytes) return undefined;
      const encoded = [...rep.ready].flatMap(([coding, variant]) =>
        coding === "identity" ? [] : [{ coding, bytes: variant.bytes, etag: variant.etag }]
      );
      const type = rep.shared["Content-Type"];
      return { base: own.base, type, full: own.full, etag: rep.etag, encoded };
    },
    feedToKeep(index, journal, etagOf) {
      const served = this.servedFeed(index);
      if (served) return served;
      const base = own?.base ?? configuredBase;
      if (base === undefined) return undefined;
      // An index no request has followed yet (a reload just before the stop): its feed is
      // written from the last one's bytes, as a request's would be.
      this.follow(index);
      const full = fullFeed({ index, journal, base });
      return { base, type: TYPES.json, full, etag: etagOf(full.bytes), encoded: [] };
    },
    seedFeed(index, feed) {
      this.follow(index);
      if (own !== undefined && own.base !== feed.base) return;
      own = ownFor(feed.base);
      own.full = feed.full;
      const rep = keptRepresentation(
        feed.type,
        feed.full.bytes,
        feed.etag,
        feed.encoded,
        settings,
        index.builtAt,
      );
      own.feed = { pending: Promise.resolve(rep), made: rep };
    },
    seedPrevious(index, previous) {
      this.follow(index);
      if (own !== undefined && own.base !== previous.base) return;
      own ??= ownFor(previous.base);
      before = previous;
    },
    follow(index) {
      if (index === current) return;
      const was = current;
      before = was && own?.full
        ? { base: own.base, full: own.full, placeOf: (item) => was.feedPlace.get(item) }
        : undefined;
      current = index;
      // An answer made of items the new index holds as they were is the same answer.
      cache.retain((_, value) => {
        const holds = (value as Slot).holds;
        return holds !== undefined && holds.every((item) => index.byId.get(item.id) === item);
      });
      urls.clear();
      own = configuredBase === undefined ? undefined : ownFor(configuredBase);
    },
    fullFeed,
    async made(c, plan) {
      const full = `${c.base}\n${plan.key}`;
      let slot = c.index === current ? lookup(full) : undefined;
      if (!slot) {
        const flight = plan.readsFiles ? reading : computing;
        const built = await flight.run(c.index, full, () => build(c, plan, full));
        if ("stale" in built) return built;
        slot = built;
      }
      return await slot.pending;
    },
    async send(request, c, plan, rep) {
      const response = await sendRepresentation(request, rep, settings, plan.headers);
      const full = `${c.base}\n${plan.key}`;
      const usable = c.index === current;
      const slot = usable ? lookup(full) : undefined;
      // An encoding may have been made: the kept answer holds more bytes now.
      if (slot && slot.made === rep && full !== own?.key) cache.resize(full, slot, rep.held());
      if (usable && !c.mounted && request.url.length <= MAX_URL) {
        // One alias per answer however many cache-busters ask for it: they never fill the map.
        const url = urlWithoutIgnoredParameters(request.url);
        if (urls.size >= URL_ALIASES && !urls.has(url)) urls.delete(urls.keys().next().value!);
        urls.set(url, { key: full, extra: plan.headers });
      }
      return response;
    },
    ready(request, index) {
      if (index !== current) return undefined;
      const alias = urls.get(urlWithoutIgnoredParameters(request.url));
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
