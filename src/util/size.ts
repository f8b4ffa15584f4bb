const UNITS: Record<string, number> = {
  b: 1,
  kb: 1024,
  kib: 1024,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * Reads a size in bytes as the config writes it: a whole number of bytes, or
 * a number with a unit `B`, `KB`, `MB` or `GB` (case-insensitive; `KiB`,
 * `MiB`, `GiB` too). Units are binary: `10MB` is 10 × 1024 × 1024 bytes, as
 * in nginx's and most servers' configs. `undefined` when the text is not a
 * size.
 *
 * @example
 * ```ts
 * import { parseSize } from "./size.ts";
 * parseSize("10MB"); // 10485760
 * parseSize(2048); // 2048
 * parseSize("ten"); // undefined
 * ```
 */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  }
  if (typeof value !== "string") return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  if (!m) return undefined;
  const unit = UNITS[(m[2] || "b").toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/**
 * Prints a size in bytes for people: `512 B`, `1.5 KB`, `10.0 MB`, `1.0 GB`
 * (binary units, as {@link parseSize} reads them).
 *
 * @example
 * ```ts
 * import { formatSize } from "./size.ts";
 * formatSize(1073741824); // "1.0 GB"
 * ```
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
