/**
 * Runs `work` on each value that `next` hands out, until it hands out
 * `undefined`, with `lanes` of them in flight at once: enough to keep file
 * reads busy, few enough to bound the memory they hold.
 *
 * @example
 * ```ts
 * import { inLanes } from "./lanes.ts";
 * let i = 0;
 * await inLanes(() => paths[i++], async (path) => console.log(await Deno.readTextFile(path)));
 * ```
 */
export async function inLanes<T>(
  next: () => T | undefined,
  work: (value: T) => Promise<void>,
  lanes = 32,
): Promise<void> {
  const lane = async () => {
    for (let value = next(); value !== undefined; value = next()) await work(value);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}
