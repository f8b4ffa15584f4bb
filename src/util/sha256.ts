// SHA-256 (FIPS 180-4) in plain JavaScript, synchronous: for the many small
// texts of a body's sections, where `crypto.subtle.digest` costs each text a
// promise and a trip to another thread, and Deno's slows with the number of
// digests pending (docs/performance.md has the figures). The file checksums
// of the loader use the runtime's native hash instead (`source/file_hash.ts`).

/** The round constants: the first 32 bits of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);
const HEX = new TextEncoder().encode("0123456789abcdef");
const encoder = new TextEncoder();
/** The message schedule, reused by every block. */
const w = new Int32Array(64);
/** UTF-16 units encoded at a time: a long text is hashed in pieces, in a buffer of fixed size. */
const PIECE = 16 * 1024;
/** A piece's UTF-8 (at most 3 bytes a unit), after what is left of the last piece (under 64 bytes). */
const buffer = new Uint8Array(PIECE * 3 + 128);
const state = new Int32Array(8);

/**
 * SHA-256 of a text's UTF-8 bytes as lowercase hex (64 characters), computed
 * in JavaScript, synchronously: the same as `sha256Hex` in `hash.ts`.
 *
 * @example
 * ```ts
 * import { sha256HexSync } from "./sha256.ts";
 * sha256HexSync("abc"); // "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
 * ```
 */
export function sha256HexSync(text: string): string {
  state[0] = 0x6a09e667;
  state[1] = 0xbb67ae85;
  state[2] = 0x3c6ef372;
  state[3] = 0xa54ff53a;
  state[4] = 0x510e527f;
  state[5] = 0x9b05688c;
  state[6] = 0x1f83d9ab;
  state[7] = 0x5be0cd19;
  let pending = 0; // bytes in the buffer not yet compressed
  let total = 0;
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + PIECE, text.length);
    // A surrogate pair stays in one piece (apart, each would encode as U+FFFD).
    const last = text.charCodeAt(to - 1);
    if (to < text.length && last >= 0xd800 && last <= 0xdbff) to--;
    const piece = from === 0 && to === text.length ? text : text.substring(from, to);
    const written = encoder.encodeInto(piece, buffer.subarray(pending)).written;
    pending += written;
    total += written;
    let at = 0;
    for (; at + 64 <= pending; at += 64) compress(at);
    buffer.copyWithin(0, at, pending);
    pending -= at;
    from = to;
  }
  // Padding: a 1 bit, zeros up to 56 bytes mod 64, then the length in bits (big-endian, 64 bits).
  const end = pending + 9 <= 64 ? 64 : 128;
  buffer[pending] = 0x80;
  buffer.fill(0, pending + 1, end - 8);
  const high = Math.floor(total / 0x20000000); // total * 8 / 2^32
  const low = (total * 8) >>> 0;
  buffer[end - 8] = high >>> 24;
  buffer[end - 7] = high >>> 16;
  buffer[end - 6] = high >>> 8;
  buffer[end - 5] = high;
  buffer[end - 4] = low >>> 24;
  buffer[end - 3] = low >>> 16;
  buffer[end - 2] = low >>> 8;
  buffer[end - 1] = low;
  for (let at = 0; at < end; at += 64) compress(at);
  const codes = new Uint8Array(64);
  for (let i = 0; i < 8; i++) {
    const word = state[i];
    for (let j = 0; j < 8; j++) codes[i * 8 + j] = HEX[(word >>> (28 - 4 * j)) & 15];
  }
  // `apply`, not a spread: far cheaper per call (and one flat string, as in hash.ts).
  return String.fromCharCode.apply(null, codes as unknown as number[]);
}

/** One 64-byte block of the buffer, from `at`, into {@link state}. */
function compress(at: number): void {
  const bytes = buffer;
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
  }
  for (let i = 16; i < 64; i++) {
    const a = w[i - 15];
    const b = w[i - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
  }
  let a = state[0];
  let b = state[1];
  let c = state[2];
  let d = state[3];
  let e = state[4];
  let f = state[5];
  let g = state[6];
  let h = state[7];
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + K[i] + w[i]) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] + a) | 0;
  state[1] = (state[1] + b) | 0;
  state[2] = (state[2] + c) | 0;
  state[3] = (state[3] + d) | 0;
  state[4] = (state[4] + e) | 0;
  state[5] = (state[5] + f) | 0;
  state[6] = (state[6] + g) | 0;
  state[7] = (state[7] + h) | 0;
}
