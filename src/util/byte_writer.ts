import type { ByteSink } from "./json_bytes.ts";

const encoder = new TextEncoder();

/** A buffer that UTF-8 text is written straight into, growing as needed. */
export interface ByteWriter extends ByteSink {
  /** Bytes written so far. */
  readonly at: number;
  /** Writes a text as UTF-8. */
  write(text: string): void;
  /** Copies bytes in. */
  copy(part: Uint8Array): void;
  /** The bytes written; copied out when the buffer is far larger. */
  done(): Uint8Array;
}

/**
 * A {@link ByteWriter} with room for `guess` bytes at first, growing by
 * `growth` (and at least what a write needs) when full: answers are written
 * in place, never built as a string and encoded again.
 *
 * @example
 * ```ts
 * import { byteWriter } from "./byte_writer.ts";
 * const out = byteWriter(16);
 * out.write('{"a":');
 * out.copy(new TextEncoder().encode("1}"));
 * new TextDecoder().decode(out.done()); // '{"a":1}'
 * ```
 */
export function byteWriter(guess: number, growth = 1.25): ByteWriter {
  let bytes = new Uint8Array(Math.max(64, guess));
  let at = 0;
  const grow = (need: number) => {
    const next = new Uint8Array(Math.max(Math.ceil(bytes.length * growth), at + need + 1024));
    next.set(bytes.subarray(0, at));
    bytes = next;
  };
  return {
    get at() {
      return at;
    },
    write(text: string) {
      for (let done = 0; done < text.length;) {
        if (bytes.length - at < text.length - done) grow(text.length - done);
        const { read, written } = encoder.encodeInto(
          done === 0 ? text : text.slice(done),
          bytes.subarray(at),
        );
        done += read;
        at += written;
        // Room for the characters left but not for the bytes of the next one: no progress without more.
        if (read === 0) grow(4);
      }
    },
    copy(part: Uint8Array) {
      if (bytes.length - at < part.length) grow(part.length);
      bytes.set(part, at);
      at += part.length;
    },
    room(count: number) {
      if (bytes.length - at < count) grow(count);
      return { bytes, at };
    },
    advance(count: number) {
      at += count;
    },
    done(): Uint8Array {
      return bytes.length - at > at / 8 ? bytes.slice(0, at) : bytes.subarray(0, at);
    },
  };
}
