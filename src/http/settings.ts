/** HTTP settings that are the same for every response. */
export interface HttpSettings {
  /** Send `Access-Control-Allow-Origin: *` (SPEC 9; configurable off). */
  readonly cors: boolean;
  /** The `Cache-Control` of successful responses. */
  readonly cacheControl: string;
  /** How responses are built on this runtime (see `src/adapters/`). */
  readonly tuning?: Tuning;
}

/**
 * Runtime tuning, chosen by the adapter `main.ts` picks: nothing a library
 * user needs to know.
 */
export interface Tuning {
  /**
   * The `Response` class to build responses with: srvx's `FastResponse` on
   * Node skips the web `Response` object's overhead. Default: `Response`.
   */
  readonly Response?: typeof Response;
  /**
   * Answer with clones of a `Response` built once per variant instead of a
   * new one per request. Deno and Bun share the body bytes between clones,
   * where a new `Response` copies them; Node's web `Response` tees a
   * clone's stream, so it stays off there. Default: `false`.
   */
  readonly cloneResponses?: boolean;
  /**
   * Asks the runtime to collect garbage, once the response cache has evicted
   * a budget's worth of answers: Bun's collector lets large evicted buffers
   * pile up far past the budget between its own collections. Default: none.
   */
  readonly collectGarbage?: () => void;
  /**
   * Asks the runtime for a full collection after a load that derived most
   * of a large site (`isColdLoad` in `pipeline/pipeline.ts`: a first start,
   * a reload after a checkout that changed most files), before its index
   * is built, and once more after a start's first index: the parse's
   * garbage is then most of the heap, and what is built next would grow
   * the heap past it. The server's adapters set it (`content-feed serve`);
   * `createContentApi` alone does not. Default: none.
   */
  readonly collectAfterLoad?: () => void;
  /**
   * Whether a response whose body is a stream is sent with the
   * `Content-Length` it was given, as one sent from bytes is: under Deno
   * and srvx on Node it is; Bun sends it chunked. A restart hands its kept
   * feed over in slices only where it is (`http/early_feed.ts`).
   * Default: `false`.
   */
  readonly streamsKeepLength?: boolean;
}
