const WORD = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}\p{N}]+)*/gu;

/**
 * Counts Unicode word runs in a body after removing HTML tags; an apostrophe
 * inside a word ("don't") does not split it.
 *
 * @example
 * ```ts
 * import { countWords } from "./reading_time.ts";
 * countWords("<p>Guía rápida, don't panic</p>"); // 4
 * ```
 */
export function countWords(body: string): number {
  let count = 0;
  for (const _ of body.replace(/<[^>]*>/g, " ").matchAll(WORD)) count++;
  return count;
}

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
