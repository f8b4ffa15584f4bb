/**
 * Reading time in whole minutes at 200 words a minute, at least 1 (SPEC 4).
 *
 * @example
 * ```ts
 * import { readingTime } from "./reading_time.ts";
 * readingTime(401); // 3
 * readingTime(0); // 1
 * ```
 */
export function readingTime(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}
