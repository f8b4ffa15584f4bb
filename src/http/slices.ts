// A large body handed to the runtime a slice at a time, so that its sender
// learns when the runtime has taken it: the runtime writes a response's
// bytes on the thread that runs the load, the watch and the catch-up, so
// work begun while a large answer is still being written holds it back (at
// 100,000 files, a 15 MB full feed was read whole seconds after it was
// answered). Where the runtime keeps a stream's `Content-Length`
// (`Tuning.streamsKeepLength`), such a body is sent as bytes are.

/**
 * The bytes handed to the runtime at a time: it asks for the next slice
 * once it wrote the last, so when the last is taken at most this much is
 * left outside the kernel's buffers (1 MiB left a 7.3 MB answer waiting on
 * the load for 0.5 s).
 */
export const SLICE = 1 << 16;

/**
 * `source` (bytes, or a body's stream of chunks) as a stream of views of at
 * most `slice` bytes, calling `taken` once the last is taken, or when the
 * client is gone or the source fails. The views share the source's bytes.
 *
 * @example
 * ```ts
 * import { inSlices } from "./slices.ts";
 * const body = inSlices(new Uint8Array(200_000), () => console.log("taken"));
 * await new Response(body).arrayBuffer(); // logs "taken"
 * ```
 */
export function inSlices(
  source: Uint8Array | ReadableStream<Uint8Array>,
  taken: () => void,
  slice: number = SLICE,
): ReadableStream<Uint8Array> {
  const reader = source instanceof Uint8Array ? undefined : source.getReader();
  let chunk: Uint8Array | undefined = source instanceof Uint8Array ? source : undefined;
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (chunk === undefined || at >= chunk.length) {
          const read = reader ? await reader.read() : { done: true as const };
          if (read.done) {
            chunk = undefined;
            controller.close();
            taken();
            return;
          }
          chunk = read.value;
          at = 0;
        }
        controller.enqueue(chunk.subarray(at, at + slice));
        at += slice;
      } catch (error) {
        chunk = undefined;
        taken();
        throw error;
      }
    },
    cancel(reason) {
      chunk = undefined;
      taken();
      return reader?.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
