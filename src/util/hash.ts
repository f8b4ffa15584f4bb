const HEX = new TextEncoder().encode("0123456789abcdef");

/**
 * SHA-256 of bytes as lowercase hex (64 characters), through `crypto.subtle`.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * await sha256Hex(new Uint8Array()); // "e3b0c442…b855"
 * ```
 */
export async function sha256Hex(bytes: Uint8Array | string): Promise<string> {
  const data = typeof bytes === "string" ? new TextEncoder().encode(bytes) : bytes;
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>),
  );
  // One flat string from the character codes: `+=` per byte leaves a tree of
  // cons strings behind every checksum the index keeps.
  const codes = new Uint8Array(64);
  for (let i = 0; i < 32; i++) {
    codes[2 * i] = HEX[digest[i] >> 4];
    codes[2 * i + 1] = HEX[digest[i] & 15];
  }
  // `apply`, not a spread: far cheaper per call.
  return String.fromCharCode.apply(null, codes as unknown as number[]);
}

/**
 * FNV-1a of a text, 8 hex digits: a stable name for a path that has no
 * letters to make a slug from (`日本語.md`), unchanged by edits of the file.
 *
 * @example
 * ```ts
 * import { shortHash } from "./hash.ts";
 * shortHash("日本語.md").length; // 8
 * ```
 */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
