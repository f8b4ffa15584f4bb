// The shapes the feed answers and the client's options (SPEC 6, 7, 12), as
// a client sees them: plain data, no dependency on the server's code.

/** A tag of an item. */
export interface FeedTag {
  /** The tag as the content writes it. */
  readonly name: string;
  /** Its slug: what the `tag` filter compares. */
  readonly slug: string;
  /** Items across the site that carry it (changes with other items: not a change of this one). */
  readonly count: number;
}

/** A section of an item's body (`include=sections`, SPEC 13). */
export interface FeedSection {
  /** The heading's anchor (`""` for the text before the first heading). */
  readonly anchor: string;
  /** The heading's text. */
  readonly heading: string;
  /** The enclosing level-1 and level-2 headings, then its own. */
  readonly path: readonly string[];
  /** The heading's level, 1–3 (0 before the first heading). */
  readonly level: number;
  /** The section's plain text. */
  readonly text: string;
  /** SHA-256 of `text`: re-embed a section when it changes. */
  readonly checksum: string;
}

/**
 * An item of the feed (SPEC 6): the seed's fields, and those `include`
 * adds. With `fields`, an item holds only the fields named (and `id`):
 * give `changes` a narrower type then.
 */
export interface FeedItem {
  /** The item's id: `<type>_<category>_<uri with "/" as "_">`. */
  readonly id: string;
  /** SHA-256 of the source file, lowercase hex. */
  readonly checksum: string;
  /** The plugin's type (`docs`, `blog`, …). */
  readonly type: string;
  /** The plugin's category at the item's depth. */
  readonly category: string;
  /** The slugs of the item's ancestors and its own, joined with `/`. */
  readonly uri: string;
  /** The item's JSON form (`client.item(link)` fetches it). */
  readonly link: string;
  /** The front matter's image, absolute; `null` when none. */
  readonly image: string | null;
  /** The title. */
  readonly title: string;
  /** The description, or a preview of the body. */
  readonly description: string;
  /** The authors, `{name, slug}`. */
  readonly authors: readonly { readonly name: string; readonly slug: string }[];
  /** The tags, `{name, slug, count}`. */
  readonly tags: readonly FeedTag[];
  /** `YYYY-MM-DD`. */
  readonly date: string;
  /** `YYYY-MM-DD`. */
  readonly last_update: string;
  /** Reading time in minutes. */
  readonly time: number;
  /** The item's page on the site (`include=url`). */
  readonly url?: string;
  /** The Markdown body without front matter (`include=body`). */
  readonly body?: string;
  /** The body's plain text (`include=text`). */
  readonly text?: string;
  /** The body split at headings of levels 1–3 (`include=sections`). */
  readonly sections?: readonly FeedSection[];
  /** The locale (`include=lang`), where the site has locales. */
  readonly lang?: string | null;
  /** The version (`include=version`), where the site has versions. */
  readonly version?: string | null;
  /** The id of the item this one translates or versions (`include=variant_of`). */
  readonly variant_of?: string | null;
}

/** An item's JSON form (SPEC 7): the feed's fields, its body, its parent and its children. */
export interface ItemDetail extends FeedItem {
  /** The Markdown body, without front matter. */
  readonly body: string;
  /** The parent's id, or `null`. */
  readonly parent: string | null;
  /** The ids of its children. */
  readonly children: readonly string[];
}

/** One batch of a sync: one page of the feed's answer to `since`. */
export interface ChangeBatch<T = FeedItem> {
  /** Items that entered or changed: store them, replacing what you hold for their ids. */
  readonly upserts: readonly T[];
  /** Ids that left the feed: remove them (an id you do not hold: nothing to do). */
  readonly deletions: readonly string[];
  /** Where the next sync starts: save it once the batch is applied. */
  readonly cursor: string;
  /**
   * `true` on the first batch after the server could not answer the cursor
   * (a `410`: another journal, or a cursor older than the retention): the
   * sync started over from `since=0`. Clear what you hold before applying it.
   */
  readonly reset: boolean;
  /** Whether batches follow in this sync. */
  readonly more: boolean;
}

/** What `client.changes()` asks for (SPEC 12: `since` combines with these only). */
export interface ChangesOptions {
  /** The cursor of the last sync; `"0"` (the default): every current item, then what changes. */
  readonly since?: string;
  /** Fields to add: `url`, `body`, `text`, `sections`, `lang`, `version`, `variant_of`. */
  readonly include?: readonly string[] | string;
  /** Only these fields (and `id`). */
  readonly fields?: readonly string[] | string;
  /** Only items of this type (their deletions included). */
  readonly type?: string;
  /** Only items of this category. */
  readonly category?: string;
  /** Only items of this locale. */
  readonly lang?: string;
  /** Only items of this version. */
  readonly version?: string;
  /** Items per batch, 1–10000 (default 500); else a `RangeError` before any request. */
  readonly limit?: number;
  /** Stops the sync (and its waits between retries). */
  readonly signal?: AbortSignal;
}

/** What the feed's manifest narrows to. */
export interface ManifestOptions {
  /** Only items of this type. */
  readonly type?: string;
  /** Only items of this category. */
  readonly category?: string;
  /** Only items of this locale. */
  readonly lang?: string;
  /** Only items of this version. */
  readonly version?: string;
  /** Stops the request (and its waits between retries). */
  readonly signal?: AbortSignal;
}

/** One line of the manifest. */
export interface ManifestEntry {
  /** The item's id. */
  readonly id: string;
  /** SHA-256 of its source file. */
  readonly checksum: string;
  /** `YYYY-MM-DD`. */
  readonly last_update: string;
}

/** The whole feed as ids, checksums and dates (`fields=id,checksum,last_update`). */
export interface Manifest {
  /** The journal's position of the index that answered: a `since` from there gets what changed. */
  readonly cursor: string;
  /** When that index was built, `YYYY-MM-DD HH:MM:SS` UTC. */
  readonly generated: string;
  /** Every item of the feed (that the filters keep), in feed order. */
  readonly items: readonly ManifestEntry[];
}

/** How requests are retried after a network error, a `5xx`, a `408` or a `429`. */
export interface RetryOptions {
  /** Retries after the first attempt (default 6). */
  readonly retries?: number;
  /** The first wait, doubled at each retry, with jitter (default 250 ms). */
  readonly baseDelayMs?: number;
  /**
   * The longest wait (default 30,000 ms). A `Retry-After` longer than it
   * ends the retries with the error: the client never waits less than the
   * server asks.
   */
  readonly maxDelayMs?: number;
}

/** Options of a `FeedClient`. */
export interface FeedClientOptions {
  /**
   * The fetch to use, given a `Request` (default: the global `fetch`). An
   * in-process service's `api.fetch` works as it is.
   */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (an `Authorization` for a private feed). */
  readonly headers?: HeadersInit;
  /** How failed requests are retried (see `RetryOptions`). */
  readonly retry?: RetryOptions;
}
