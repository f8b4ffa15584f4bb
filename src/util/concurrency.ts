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

/**
 * Hands the event loop back during long synchronous work, so that other
 * requests, timers and signals are served meanwhile. Call it between units
 * of work: `undefined` while the current slice of work is short, else a
 * promise to await, settled by a macrotask (a timer) once everything else
 * that was waiting has run. Every caller that shares one pacer (the items of
 * one response, gathered 32 at a time) waits on the same turn, so together
 * they hold the loop for one slice at a time, not one slice each.
 */
export type Pacer = () => Promise<void> | undefined;

/** How long a slice of synchronous work runs before {@link createPacer}'s pacer yields, in ms. */
export const SLICE_MS = 20;

/**
 * A {@link Pacer} that yields after `sliceMs` of work, as the clock tells
 * (a clock decides when to yield; no test asserts on it). `onYield` counts
 * the turns given back.
 *
 * @example
 * ```ts
 * import { createPacer } from "./concurrency.ts";
 * const pace = createPacer();
 * for (let i = 0; i < 1e6; i++) {
 *   // ... a unit of work ...
 *   const turn = pace();
 *   if (turn) await turn;
 * }
 * ```
 */
export function createPacer(sliceMs = SLICE_MS, onYield?: () => void): Pacer {
  let sliceStart = performance.now();
  let turn: Promise<void> | undefined;
  return () => {
    if (turn) return turn;
    if (performance.now() - sliceStart < sliceMs) return undefined;
    onYield?.();
    turn = new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => {
      turn = undefined;
      sliceStart = performance.now();
    });
    return turn;
  };
}
