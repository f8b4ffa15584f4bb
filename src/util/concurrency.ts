/**
 * Runs `work` on each value that `next` hands out, until it hands out
 * `undefined`, with at most `concurrency` of them in flight at once: enough
 * to keep file reads busy, few enough to bound the memory they hold.
 *
 * @example
 * ```ts
 * import { forEachConcurrently } from "./concurrency.ts";
 * const paths = ["a.md", "b.md"];
 * let i = 0;
 * const seen: string[] = [];
 * await forEachConcurrently(() => paths[i++], async (path) => {
 *   seen.push(path);
 * });
 * ```
 */
export async function forEachConcurrently<T>(
  next: () => T | undefined,
  work: (value: T) => Promise<void>,
  concurrency = 32,
): Promise<void> {
  const worker = async () => {
    for (let value = next(); value !== undefined; value = next()) await work(value);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
