import { sha256Hex } from "../source/hash.ts";
import { compress, negotiate } from "./compress.ts";
import { PROBLEM_TYPE, problemBody } from "./problem.ts";

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

/** HTTP settings that are the same for every response. */
export interface HttpSettings {
  /** Send `Access-Control-Allow-Origin: *`. */
  readonly cors: boolean;
  /** The `Cache-Control` of successful responses. */
  readonly cacheControl: string;
  /**
   * The `Response` class to build responses with: srvx's `FastResponse` on
   * Node skips the web `Response` object's overhead. Default: `Response`.
   */
  readonly Response?: typeof Response;
  /**
   * Answer with clones of one `Response` built per variant instead of a new
   * one per request. Deno and Bun share the body bytes between clones, where
   * a new `Response` copies them; Node's web `Response` tees a clone's
   * stream, so it stays off there. Default: `false`.
   */
  readonly cloneResponses?: boolean;
}

const encoder = new TextEncoder();
/** Bodies at or under this many bytes are sent uncompressed (SPEC 9). */
export const COMPRESS_MIN = 1024;

async function etagOf(bytes: Uint8Array): Promise<string> {
  return `"${(await sha256Hex(bytes)).slice(0, 32)}"`;
}

type Parts = Omit<Representation, "variants" | "held"> & { size: number };

async function makeVariant(rep: Parts, coding: string, settings: HttpSettings): Promise<Variant> {
  const bytes = coding === "identity" ? rep.bytes : await compress(rep.bytes, coding);
  const etag = coding === "identity" ? rep.etag : await etagOf(bytes);
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
  if (!settings.cloneResponses) return undefined;
  const key = extra ? JSON.stringify(extra) : "";
  let built = variant.built.get(key);
  if (!built && make && variant.built.size < BUILT_PER_VARIANT) {
    const R = settings.Response ?? Response;
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
 * import { represent } from "./respond.ts";
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
  const seconds = Math.floor(lastModified / 1000) * 1000;
  const shared: Record<string, string> = {
    ...baseHeaders(settings),
    "Cache-Control": settings.cacheControl,
    "Content-Type": type,
    "Last-Modified": new Date(seconds).toUTCString(),
    "Vary": "Accept-Encoding",
  };
  const etag = await etagOf(bytes);
  const parts: Parts = {
    bytes,
    etag,
    lastModified: seconds,
    shared,
    etags: new Set([etag]),
    ready: new Map<string, Variant>(),
    size: bytes.length,
  };
  const rep: Parts & Representation = Object.assign(parts, {
    variants: new Map<string, Promise<Variant>>(),
    held: () => parts.size,
  });
  const identity = makeVariant(rep, "identity", settings);
  rep.variants.set("identity", identity);
  await identity;
  return rep;
}

/** Codings chosen per `Accept-Encoding` value seen; bounded, since clients choose the values. */
const negotiated = new Map<string, string>();

/**
 * Answers a request with a representation (SPEC 9): `ETag` and
 * `Last-Modified` validators with `304` on a match, `Cache-Control`, CORS,
 * `nosniff`, gzip (or br, where the runtime can) when accepted and the body
 * is over 1 KiB, and no body for `HEAD`. Each encoding has the strong ETag of
 * its own bytes.
 *
 * @example
 * ```ts
 * import { represent, sendRepresentation } from "./respond.ts";
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
  const coding = codingFor(request, rep);
  let pending = rep.variants.get(coding);
  if (!pending) {
    // Every representation is made by `represent`, whose object is its parts too.
    rep.variants.set(
      coding,
      pending = makeVariant(rep as Parts & Representation, coding, settings),
    );
  }
  return answer(request, rep, await pending, settings, extra, true);
}

/**
 * {@link sendRepresentation} without waiting, when the variant the request
 * asks for is made already; otherwise `undefined`. The path of every repeated
 * request.
 *
 * @example
 * ```ts
 * import { answerNow } from "./respond.ts";
 * const response = answerNow(new Request("http://x/"), rep, settings) ?? await sendRepresentation(request, rep, settings);
 * ```
 */
export function answerNow(
  request: Request,
  rep: Representation,
  settings: HttpSettings,
  extra?: Record<string, string>,
): Response | undefined {
  const variant = rep.ready.get(codingFor(request, rep));
  return variant && answer(request, rep, variant, settings, extra, false);
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
  const R = settings.Response ?? Response;
  const built = builtFor(rep as Parts & Representation, variant, settings, extra, build);
  if (notModified(request, rep)) {
    return built?.notModified.clone() ?? new R(null, { status: 304, headers: variant.notModified });
  }
  const headers = extra ? { ...variant.ok, ...extra } : variant.ok;
  if (request.method === "HEAD") return new R(null, { status: 200, headers });
  return built?.ok.clone() ?? new R(variant.bytes as Uint8Array<ArrayBuffer>, { headers });
}

function codingFor(request: Request, rep: Representation): string {
  if (rep.bytes.length <= COMPRESS_MIN) return "identity";
  const accept = request.headers.get("Accept-Encoding") ?? "";
  let chosen = negotiated.get(accept);
  if (chosen === undefined) {
    chosen = negotiate(accept) ?? "identity";
    if (negotiated.size < 256) negotiated.set(accept, chosen);
  }
  return chosen;
}

function notModified(request: Request, rep: Representation): boolean {
  const match = request.headers.get("If-None-Match");
  if (match !== null) {
    if (rep.etags.has(match)) return true; // the usual case: the ETag sent back as it came
    // Weak comparison (RFC 9110 13.1.2): any encoding of the same content matches.
    return match.split(",").some((tag) => {
      const t = tag.trim().replace(/^W\//, "");
      return t === "*" || rep.etags.has(t);
    });
  }
  const since = request.headers.get("If-Modified-Since");
  if (since === null) return false;
  const time = Date.parse(since);
  return !Number.isNaN(time) && rep.lastModified <= time;
}

/**
 * A `application/problem+json` response (RFC 9457) that is never cached.
 *
 * @example
 * ```ts
 * import { sendProblem } from "./respond.ts";
 * const response = sendProblem(new Request("http://x/"), 404, "no item at /docs/nope.json", { cors: true, cacheControl: "" });
 * response.status; // 404
 * ```
 */
export function sendProblem(
  request: Request,
  status: number,
  detail: string,
  settings: HttpSettings,
  extra?: Record<string, string>,
): Response {
  const bytes = encoder.encode(problemBody(status, detail));
  const headers = {
    ...baseHeaders(settings),
    "Content-Type": PROBLEM_TYPE,
    "Cache-Control": "no-store",
    ...extra,
    "Content-Length": String(bytes.length),
  };
  return new (settings.Response ?? Response)(request.method === "HEAD" ? null : bytes, {
    status,
    headers,
  });
}

/**
 * The answer to a CORS preflight: `204` with the allowed methods and headers.
 *
 * @example
 * ```ts
 * import { sendPreflight } from "./respond.ts";
 * sendPreflight({ cors: true, cacheControl: "" }).status; // 204
 * ```
 */
export function sendPreflight(settings: HttpSettings): Response {
  const headers = { ...baseHeaders(settings), Allow: "GET, HEAD, OPTIONS" };
  if (settings.cors) {
    Object.assign(headers, {
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "*",
      "Access-Control-Max-Age": "86400",
    });
  }
  return new (settings.Response ?? Response)(null, { status: 204, headers });
}

function baseHeaders(settings: HttpSettings): Record<string, string> {
  const headers: Record<string, string> = { "X-Content-Type-Options": "nosniff" };
  if (settings.cors) {
    headers["Access-Control-Allow-Origin"] = "*";
    headers["Access-Control-Expose-Headers"] = "ETag, Link, Last-Modified";
  }
  return headers;
}
