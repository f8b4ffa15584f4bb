const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

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
  let out = "";
  for (const byte of digest) out += HEX[byte];
  return out;
}
