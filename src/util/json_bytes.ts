// A JSON string written straight from UTF-8 bytes: a body sent with
// `include=body` is copied from its file's bytes with its quotes, back
// slashes and control characters escaped, never decoded to a string,
// escaped and encoded again (three passes and two copies of every body).

const HEX = "0123456789abcdef";

/** What `JSON.stringify` writes for each byte below 0x80 that it escapes. */
const ESCAPES: readonly (Uint8Array | undefined)[] = Array.from({ length: 128 }, (_, byte) => {
  const short: Record<number, string> = {
    0x08: "\\b",
    0x09: "\\t",
    0x0a: "\\n",
    0x0c: "\\f",
    0x0d: "\\r",
    0x22: '\\"',
    0x5c: "\\\\",
  };
  const text = short[byte] ??
    (byte < 0x20 ? `\\u00${HEX[byte >> 4]}${HEX[byte & 15]}` : undefined);
  return text === undefined ? undefined : new TextEncoder().encode(text);
});
/** 1 for a byte `JSON.stringify` escapes: a flat table, one lookup a byte. */
const ESCAPED = new Uint8Array(256);
ESCAPED.set(ESCAPES.map((escape) => escape === undefined ? 0 : 1));

/** Where {@link writeJsonString} writes: room on demand, then the bytes. */
export interface ByteSink {
  /** Makes room for `count` more bytes and returns the buffer and where to write. */
  room(count: number): { readonly bytes: Uint8Array; readonly at: number };
  /** Moves the write position on by `count`. */
  advance(count: number): void;
}

/**
 * Writes `JSON.stringify(text)` as UTF-8 into `sink`, where
 * `bytes[start..end)` is `text` in valid UTF-8: the same bytes, quoted,
 * with `"`, `\` and the control characters below U+0020 escaped as
 * `JSON.stringify` escapes them. (Valid UTF-8 holds no lone surrogate, the
 * one other thing it escapes.) One pass; runs of plain bytes are copied at
 * once.
 *
 * @example
 * ```ts
 * import { writeJsonString } from "./json_bytes.ts";
 * let out = new Uint8Array(64), at = 0;
 * const sink = { room: () => ({ bytes: out, at }), advance: (n: number) => void (at += n) };
 * const bytes = new TextEncoder().encode('Say "hi"\n');
 * writeJsonString(sink, bytes, 0, bytes.length);
 * new TextDecoder().decode(out.subarray(0, at)); // '"Say \\"hi\\"\\n"'
 * ```
 */
export function writeJsonString(
  sink: ByteSink,
  bytes: Uint8Array,
  start: number,
  end: number,
): void {
  // At most 6 bytes out for a byte in (\u00XX), and the quotes.
  const { bytes: out, at: from } = sink.room((end - start) * 6 + 2);
  let at = from;
  out[at++] = 0x22;
  let run = start;
  for (let i = start; i < end; i++) {
    if (ESCAPED[bytes[i]] === 0) continue;
    out.set(bytes.subarray(run, i), at);
    at += i - run;
    const escape = ESCAPES[bytes[i]]!;
    out.set(escape, at);
    at += escape.length;
    run = i + 1;
  }
  out.set(bytes.subarray(run, end), at);
  at += end - run;
  out[at++] = 0x22;
  sink.advance(at - from);
}

/**
 * {@link writeJsonString} into a new buffer of its own.
 *
 * @example
 * ```ts
 * import { jsonStringBytes } from "./json_bytes.ts";
 * const bytes = new TextEncoder().encode("a\tb");
 * new TextDecoder().decode(jsonStringBytes(bytes, 0, bytes.length)); // '"a\\tb"'
 * ```
 */
export function jsonStringBytes(bytes: Uint8Array, start: number, end: number): Uint8Array {
  let out = new Uint8Array(0);
  let at = 0;
  writeJsonString(
    {
      room(count) {
        out = new Uint8Array(count);
        return { bytes: out, at: 0 };
      },
      advance: (count) => void (at += count),
    },
    bytes,
    start,
    end,
  );
  return out.subarray(0, at);
}
