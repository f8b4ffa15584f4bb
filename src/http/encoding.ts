import { codingOf } from "../util/accept_encoding.ts";

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

/**
 * The coding to answer a request with, for a body of `size` bytes:
 * `identity` at or under {@link COMPRESS_MIN}, else the best coding this
 * runtime makes that the client accepts (`util/accept_encoding.ts`).
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
  return codingOf(request.headers.get("Accept-Encoding") ?? "");
}
