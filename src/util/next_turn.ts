// A turn of the event loop given to whatever waits for it: requests that
// arrived while a long synchronous step held the thread are answered before
// the next step takes it again.

/**
 * Resolves on a later turn of the event loop (a timer, not a microtask: the
 * runtime reads sockets and answers requests in between).
 *
 * @example
 * ```ts
 * import { nextTurn } from "./next_turn.ts";
 * await nextTurn(); // requests waiting for the thread are answered here
 * ```
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Work written as a generator that `yield`s where a turn may be given
 * between its parts, and `return`s its result.
 */
export type Steps<T> = Generator<void, T, void>;

/**
 * Runs `steps` to their end at once, giving no turn: the same work for a
 * caller with nothing to serve meanwhile.
 *
 * @example
 * ```ts
 * import { runSteps } from "./next_turn.ts";
 * runSteps((function* () { yield; return 2; })()); // 2
 * ```
 */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs `steps` with a {@link nextTurn} at each `yield`: requests that came
 * while a part ran are answered before the next part.
 *
 * @example
 * ```ts
 * import { runStepsInTurns } from "./next_turn.ts";
 * await runStepsInTurns((function* () { yield; return 2; })()); // 2
 * ```
 */
export async function runStepsInTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await nextTurn();
  }
}
