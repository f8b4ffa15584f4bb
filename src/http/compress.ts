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
 * import { negotiate } from "./compress.ts";
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

/**
 * Compresses bytes with a web `CompressionStream`.
 *
 * @example
 * ```ts
 * import { compress } from "./compress.ts";
 * const gz = await compress(new TextEncoder().encode("hello"), "gzip");
 * ```
 */
export async function compress(bytes: Uint8Array, coding: string): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream(coding as CompressionFormat));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
