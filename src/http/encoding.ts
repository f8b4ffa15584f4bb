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
 * import { negotiate } from "./encoding.ts";
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

/** Input handed to the compressor at a time: the body itself is never copied whole. */
const SLICE = 1 << 16;

/**
 * Compresses bytes with a web `CompressionStream`, feeding it views of the
 * bytes (a `Blob` of them would copy the whole body first) and joining its
 * output once.
 *
 * @example
 * ```ts
 * import { compress } from "./encoding.ts";
 * const gz = await compress(new TextEncoder().encode("hello"), "gzip");
 * ```
 */
export async function compress(bytes: Uint8Array, coding: string): Promise<Uint8Array> {
  const stream = new CompressionStream(coding as CompressionFormat);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.readable.getReader();
  const reading = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks.push(read.value);
      size += read.value.length;
    }
  })();
  const writer = stream.writable.getWriter();
  for (let at = 0; at < bytes.length; at += SLICE) {
    await writer.write(bytes.subarray(at, at + SLICE) as Uint8Array<ArrayBuffer>);
  }
  await writer.close();
  await reading;
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** Bodies at or under this many bytes are sent uncompressed (SPEC 9). */
export const COMPRESS_MIN = 1024;

/** Codings chosen per `Accept-Encoding` value seen; bounded, since clients choose the values. */
const chosen = new Map<string, string>();
const CHOSEN_MAX = 256;

/**
 * The coding to answer a request with, for a body of `size` bytes:
 * `identity` at or under {@link COMPRESS_MIN}, else {@link negotiate}'s
 * choice (remembered per header value, a few hundred at most).
 *
 * @example
 * ```ts
 * import { codingFor } from "./encoding.ts";
 * const request = new Request("http://x/", { headers: { "Accept-Encoding": "gzip" } });
 * codingFor(request, 5000); // "gzip"
 * codingFor(request, 10); // "identity"
 * ```
 */
export function codingFor(request: Request, size: number): string {
  if (size <= COMPRESS_MIN) return "identity";
  const accept = request.headers.get("Accept-Encoding") ?? "";
  let coding = chosen.get(accept);
  if (coding === undefined) {
    coding = negotiate(accept) ?? "identity";
    if (chosen.size < CHOSEN_MAX) chosen.set(accept, coding);
  }
  return coding;
}
