// Content negotiation of `Accept-Encoding` (SPEC 9 "Compression"): which
// coding answers a client, from what this runtime's CompressionStream makes.

/** Content codings this runtime's `CompressionStream` can produce, best first. */
export const ENCODINGS: readonly string[] = ["br", "gzip"].filter((format) => {
  try {
    new CompressionStream(format as CompressionFormat);
    return true;
  } catch {
    return false;
  }
});

/**
 * Picks the coding to answer with from an `Accept-Encoding` header: the best
 * one this runtime can produce that the client accepts (q > 0).
 *
 * @example
 * ```ts
 * import { negotiate } from "./accept_encoding.ts";
 * negotiate("gzip, deflate"); // "gzip"
 * negotiate(null); // undefined
 * ```
 */
export function negotiate(header: string | null): string | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  return ENCODINGS.find((coding) => (accepted.get(coding) ?? accepted.get("*") ?? 0) > 0);
}

/** Codings chosen per `Accept-Encoding` value seen; bounded, since clients choose the values. */
const chosen = new Map<string, string>();
/** Header values remembered at most: past it, a value is negotiated on each request. */
const CHOSEN_MAX = 256;

/**
 * The coding to answer an `Accept-Encoding` header with ({@link negotiate}'s
 * choice, else `identity`), remembered per header value: a pure, bounded
 * memo (256 values at most).
 *
 * @example
 * ```ts
 * import { codingOf } from "./accept_encoding.ts";
 * codingOf("gzip, deflate"); // "gzip" (or "br" where the runtime makes it and it is accepted)
 * codingOf(""); // "identity"
 * ```
 */
export function codingOf(accept: string): string {
  let coding = chosen.get(accept);
  if (coding === undefined) {
    coding = negotiate(accept) ?? "identity";
    if (chosen.size < CHOSEN_MAX) chosen.set(accept, coding);
  }
  return coding;
}
