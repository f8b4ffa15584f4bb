/** Builds of answers: one per key at a time, and a few keys at once. */
export interface SingleFlight<S extends object> {
  /**
   * The result of `make` for `key` within `scope`: a build of the same key
   * under way is joined rather than started again, and a new one waits for
   * a free place among the builds under way.
   */
  run<T>(scope: S, key: string, make: () => Promise<T>): Promise<T>;
  /** Builds started so far (joined ones not counted): what a test counts. */
  readonly started: number;
}

/**
 * Creates a {@link SingleFlight} that runs at most `concurrency` builds at
 * once, first come first served. A hundred requests for one large answer
 * that nobody asked for before wait for one build and share its bytes,
 * where each would otherwise build its own copy; a hundred distinct ones
 * are built `concurrency` at a time, each finished before the next starts,
 * instead of all at once with every one of them half done. Keys are kept
 * per `scope` (an index) in a `WeakMap`, and only while their build runs.
 *
 * @example
 * ```ts
 * import { createSingleFlight } from "./single_flight.ts";
 * const flights = createSingleFlight<object>(2);
 * const scope = {};
 * let builds = 0;
 * const make = async () => ++builds;
 * await Promise.all([flights.run(scope, "a", make), flights.run(scope, "a", make)]); // [1, 1]
 * ```
 */
export function createSingleFlight<S extends object>(concurrency: number): SingleFlight<S> {
  const running = new WeakMap<S, Map<string, Promise<unknown>>>();
  const waiting: (() => void)[] = [];
  let active = 0;
  let started = 0;
  const acquire = (): Promise<void> | undefined => {
    if (active < concurrency) {
      active++;
      return undefined;
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const release = () => {
    const next = waiting.shift();
    if (next) next(); // the place passes on: `active` stays
    else active--;
  };
  return {
    run<T>(scope: S, key: string, make: () => Promise<T>): Promise<T> {
      let builds = running.get(scope);
      const joined = builds?.get(key);
      if (joined) return joined as Promise<T>;
      if (!builds) running.set(scope, builds = new Map());
      const build = (async () => {
        await acquire();
        started++;
        try {
          return await make();
        } finally {
          release();
          builds!.delete(key);
        }
      })();
      builds.set(key, build);
      return build;
    },
    get started() {
      return started;
    },
  };
}
