import { sha256Hex } from "../util/hash.ts";
import { isNotModified } from "./conditional.ts";
import { baseHeaders } from "./cors.ts";
import { codingFor, compress } from "./encoding.ts";
import type { HttpSettings } from "./settings.ts";

/** One encoding of a representation, with its complete response headers precomputed. */
interface Variant {
  /** The encoded body. */
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of exactly these bytes. */
  readonly etag: string;
  readonly ok: Record<string, string>;
  readonly notModified: Record<string, string>;
  /**
   * The 200 and the 304, built once, to clone per request (`cloneResponses`),
   * by the value of the request's own headers (a page's `Link`; `""` for none).
   */
  readonly built: Map<string, { readonly ok: Response; readonly notModified: Response }>;
}

/** A response body ready to send many times: the bytes, validators and headers, per encoding. */
export interface Representation {
  readonly bytes: Uint8Array;
  /** Quoted strong ETag of the identity bytes. */
  readonly etag: string;
  /** Epoch ms, second precision, for `Last-Modified` and `If-Modified-Since`. */
  readonly lastModified: number;
  /** Encoded variants by coding (`identity` included), made on first use. */
  readonly variants: Map<string, Promise<Variant>>;
  /** The variants already made, for an answer without waiting. */
  readonly ready: Map<string, Variant>;
  /** Headers every variant shares. */
  readonly shared: Record<string, string>;
  /** The ETags of every variant made so far: any of them revalidates. */
  readonly etags: Set<string>;
  /**
   * Bytes this representation holds: its body, each encoding made so far,
   * and the copies that built responses hold (`cloneResponses`).
   */
  readonly held: () => number;
}

const encoder = new TextEncoder();

async function etagOf(bytes: Uint8Array): Promise<string> {
  return etagOfDigest(await sha256Hex(bytes));
}

/**
 * The strong ETag of bytes whose SHA-256 (lowercase hex) is `digest`: the
 * one every answer of those bytes carries. For a caller that hashed them
 * itself (a stopping server, synchronously).
 *
 * @example
 * ```ts
 * import { etagOfDigest } from "./representation.ts";
 * etagOfDigest("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
 * // '"44136fa355b3678a1146ad16f7e8649e"'
 * ```
 */
export function etagOfDigest(digest: string): string {
  return `"${digest.slice(0, 32)}"`;
}

type Parts = Omit<Representation, "variants" | "held"> & { size: number };

async function makeVariant(rep: Parts, coding: string): Promise<Variant> {
  const bytes = coding === "identity" ? rep.bytes : await compress(rep.bytes, coding);
  const etag = coding === "identity" ? rep.etag : await etagOf(bytes);
  return variantOf(rep, coding, bytes, etag);
}

/** A variant of encoded bytes and their ETag, with its headers; noted in the representation. */
function variantOf(rep: Parts, coding: string, bytes: Uint8Array, etag: string): Variant {
  rep.etags.add(etag);
  const ok: Record<string, string> = {
    ...rep.shared,
    ETag: etag,
    "Content-Length": String(bytes.length),
  };
  if (coding !== "identity") ok["Content-Encoding"] = coding;
  const notModified: Record<string, string> = { ETag: etag };
  for (const name of NOT_MODIFIED_HEADERS) {
    if (rep.shared[name] !== undefined) notModified[name] = rep.shared[name];
  }
  const variant: Variant = { bytes, etag, ok, notModified, built: new Map() };
  rep.ready.set(coding, variant);
  if (coding !== "identity") rep.size += bytes.length;
  return variant;
}

/** Built responses kept per variant: one per spelling of a page's `Link`, a few at most. */
const BUILT_PER_VARIANT = 4;

/** The key of a variant's built responses: the values of the request's own headers (one `Link` in practice). */
function builtKey(extra: Record<string, string> | undefined): string {
  if (!extra) return "";
  let key = builtKeys.get(extra);
  if (key === undefined) {
    key = "";
    for (const name in extra) key += `${name}: ${extra[name]}\n`;
    builtKeys.set(extra, key);
  }
  return key;
}

/**
 * {@link builtKey} by headers object: a page's `Link` is one object per answer and
 * spelling (kept with its URL), so a repeated request neither joins nor hashes a new string.
 */
const builtKeys = new WeakMap<Record<string, string>, string>();

/**
 * The built responses of a variant for a request's own headers, made on
 * first use when `cloneResponses` asks for them and there is room.
 */
function builtFor(
  rep: Parts,
  variant: Variant,
  settings: HttpSettings,
  extra: Record<string, string> | undefined,
  make: boolean,
): { readonly ok: Response; readonly notModified: Response } | undefined {
  if (!settings.tuning?.cloneResponses) return undefined;
  const key = builtKey(extra);
  let built = variant.built.get(key);
  if (!built && make && hasRoom(variant, settings)) {
    const R = settings.tuning?.Response ?? Response;
    built = {
      ok: new R(variant.bytes as Uint8Array<ArrayBuffer>, {
        headers: extra ? { ...variant.ok, ...extra } : variant.ok,
      }),
      notModified: new R(null, { status: 304, headers: variant.notModified }),
    };
    variant.built.set(key, built);
    rep.size += variant.bytes.length; // a built response holds a copy (Deno copies what it is given)
  }
  return built;
}

/** Whether another response may be built for `variant`: responses are cloned, and it holds fewer than the most. */
function hasRoom(variant: Variant, settings: HttpSettings): boolean {
  return settings.tuning?.cloneResponses === true && variant.built.size < BUILT_PER_VARIANT;
}

// The 304's fields: the validators and caching fields RFC 9110 15.4.5 asks
// for, and the two SPEC 9 puts on every response. A browser that revalidates
// keeps the rest (Content-Type, Expose-Headers) from its stored 200.
const NOT_MODIFIED_HEADERS = [
  "Last-Modified",
  "Cache-Control",
  "Vary",
  "Access-Control-Allow-Origin",
  "X-Content-Type-Options",
];

/**
 * Encodes a body once, with its strong ETag (SHA-256 of the bytes) and every
 * header it will be sent with, so that answering it costs a lookup.
 *
 * @example
 * ```ts
 * import { represent } from "./representation.ts";
 * const rep = await represent("application/json; charset=utf-8", '{"ok":true}',
 *   { cors: true, cacheControl: "public, max-age=60" }, Date.now());
 * rep.etag; // '"4062edaf…"'
 * ```
 */
export async function represent(
  type: string,
  body: string | Uint8Array,
  settings: HttpSettings,
  lastModified: number,
): Promise<Representation> {
  const bytes = typeof body === "string" ? encoder.encode(body) : body;
  const rep = partsOf(type, bytes, await etagOf(bytes), settings, lastModified);
  const identity = makeVariant(rep, "identity");
  rep.variants.set("identity", identity);
  await identity;
  return rep;
}

/**
 * A representation of bytes whose ETag and encodings are known already (the
 * full feed a server kept when it stopped, `pipeline/feed_image.ts`): the
 * same object {@link represent} makes of the same bytes, without hashing or
 * compressing them again.
 *
 * @param etag the quoted strong ETag of `bytes`
 * @param encoded other encodings of `bytes`, each with the quoted strong ETag of its own bytes
 *
 * @example
 * ```ts
 * import { keptRepresentation } from "./representation.ts";
 * const rep = keptRepresentation("application/json; charset=utf-8",
 *   new TextEncoder().encode("{}"), '"44136fa355b3678a1146ad16f7e8649e"', [],
 *   { cors: true, cacheControl: "public, max-age=60" }, Date.now());
 * rep.ready.has("identity"); // true
 * ```
 */
export function keptRepresentation(
  type: string,
  bytes: Uint8Array,
  etag: string,
  encoded: readonly { coding: string; bytes: Uint8Array; etag: string }[],
  settings: HttpSettings,
  lastModified: number,
): Representation {
  const rep = partsOf(type, bytes, etag, settings, lastModified);
  for (const kept of [{ coding: "identity", bytes, etag }, ...encoded]) {
    rep.variants.set(
      kept.coding,
      Promise.resolve(variantOf(rep, kept.coding, kept.bytes, kept.etag)),
    );
  }
  return rep;
}

/** A representation's parts and its (empty) maps of variants. */
function partsOf(
  type: string,
  bytes: Uint8Array,
  etag: string,
  settings: HttpSettings,
  lastModified: number,
): Parts & Representation {
  const seconds = Math.floor(lastModified / 1000) * 1000;
  const shared: Record<string, string> = {
    ...baseHeaders(settings),
    "Cache-Control": settings.cacheControl,
    "Content-Type": type,
    "Last-Modified": new Date(seconds).toUTCString(),
    "Vary": "Accept-Encoding",
  };
  const parts: Parts = {
    bytes,
    etag,
    lastModified: seconds,
    shared,
    etags: new Set([etag]),
    ready: new Map<string, Variant>(),
    size: bytes.length,
  };
  return Object.assign(parts, {
    variants: new Map<string, Promise<Variant>>(),
    held: () => parts.size,
  });
}

/**
 * Answers a request with a representation (SPEC 9): `ETag` and
 * `Last-Modified` validators with `304` on a match, `Cache-Control`, CORS,
 * `nosniff`, gzip (or br, where the runtime can) when accepted and the body
 * is over 1 KiB, and no body for `HEAD`. Each encoding has the strong ETag of
 * its own bytes.
 *
 * @example
 * ```ts
 * import { represent, sendRepresentation } from "./representation.ts";
 * const settings = { cors: true, cacheControl: "public, max-age=60" };
 * const rep = await represent("application/json; charset=utf-8", "{}", settings, Date.now());
 * const response = await sendRepresentation(new Request("http://x/"), rep, settings);
 * ```
 */
export async function sendRepresentation(
  request: Request,
  rep: Representation,
  settings: HttpSettings,
  extra?: Record<string, string>,
): Promise<Response> {
  const coding = codingFor(request, rep.bytes.length);
  let pending = rep.variants.get(coding);
  if (!pending) {
    // Every representation is made by `represent`, whose object is its parts too.
    rep.variants.set(
      coding,
      pending = makeVariant(rep as Parts & Representation, coding),
    );
  }
  return answer(request, rep, await pending, settings, extra, true);
}

/**
 * {@link sendRepresentation} without waiting, when the variant the request
 * asks for is made already (and, where responses are cloned, its response
 * to clone is built, unless `buildFirst` is `false`); otherwise `undefined`.
 * The path of every repeated request.
 *
 * @param buildFirst leave a request whose response to clone could be built
 *   to {@link sendRepresentation}, which builds it (default); `false` answers
 *   at once with a new `Response` instead (the kept full feed served while the
 *   first index loads, whose representation no cache counts: a built response
 *   would hold a copy of it, uncounted, for the whole load)
 *
 * @example
 * ```ts
 * import { answerReady, represent, sendRepresentation } from "./representation.ts";
 * const settings = { cors: true, cacheControl: "public, max-age=60" };
 * const rep = await represent("application/json; charset=utf-8", "{}", settings, Date.now());
 * const request = new Request("http://x/");
 * const response = answerReady(request, rep, settings) ??
 *   await sendRepresentation(request, rep, settings);
 * ```
 */
export function answerReady(
  request: Request,
  rep: Representation,
  settings: HttpSettings,
  extra?: Record<string, string>,
  buildFirst = true,
): Response | undefined {
  const variant = rep.ready.get(codingFor(request, rep.bytes.length));
  if (!variant) return undefined;
  const built = builtFor(rep as Parts & Representation, variant, settings, extra, false);
  if (!buildFirst) return respond(request, rep, variant, built, settings, extra);
  // Where responses are cloned and none is built for these headers yet, with room for one, the
  // asynchronous path builds it (and counts its bytes). Answered here instead, an encoding or a
  // `Link` spelling first asked for after another was built was a new `Response` for every
  // request: under Deno a copy of its bytes and a check of every header (a filtered page at 0.4
  // of a bare server's rate, where a clone answers at 0.5-0.7).
  if (!built && request.method !== "HEAD" && hasRoom(variant, settings)) return undefined;
  return respond(request, rep, variant, built, settings, extra);
}

/**
 * @param extra headers of this request's answer alone (a page's `Link`,
 *   which keeps the request's own spelling of its query), after the shared ones
 * @param build make the built responses to clone if there are none yet (not
 *   on the synchronous path, where the response cache cannot count them)
 */
function answer(
  request: Request,
  rep: Representation,
  variant: Variant,
  settings: HttpSettings,
  extra: Record<string, string> | undefined,
  build: boolean,
): Response {
  const built = builtFor(rep as Parts & Representation, variant, settings, extra, build);
  return respond(request, rep, variant, built, settings, extra);
}

/** The answer of `variant` to `request`: a clone of `built`, else a new `Response`. */
function respond(
  request: Request,
  rep: Representation,
  variant: Variant,
  built: { readonly ok: Response; readonly notModified: Response } | undefined,
  settings: HttpSettings,
  extra: Record<string, string> | undefined,
): Response {
  const R = settings.tuning?.Response ?? Response;
  if (isNotModified(request, rep)) {
    return built?.notModified.clone() ?? new R(null, { status: 304, headers: variant.notModified });
  }
  const headers = extra ? { ...variant.ok, ...extra } : variant.ok;
  if (request.method === "HEAD") return new R(null, { status: 200, headers });
  return built?.ok.clone() ?? new R(variant.bytes as Uint8Array<ArrayBuffer>, { headers });
}
