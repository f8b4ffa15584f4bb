// A content file's checksum (SPEC 4: SHA-256 of its raw bytes, lowercase
// hex) as the loader computes it. node:crypto's hash, not crypto.subtle:
// every file of a cold start is hashed, and `crypto.subtle.digest` costs
// each one a promise and a hop to another thread, about fifteen times the
// hash itself (`deno run -A bench/hashes.ts`). This module reads files anyway, so it may
// use the runtime's modules; the web-standard `sha256Hex` (util/hash.ts)
// stays for what runs without a file system.
import { createHash } from "node:crypto";

/**
 * SHA-256 of bytes as lowercase hex (64 characters), synchronously.
 *
 * @example
 * ```ts
 * import { fileChecksum } from "./file_hash.ts";
 * fileChecksum(new Uint8Array()); // "e3b0c442…b855"
 * ```
 */
export function fileChecksum(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}
