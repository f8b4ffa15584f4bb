// When a server is first quiet: no request in flight for a moment, after
// its first index is served (SPEC 10, `live.ts`: the first load's watch
// begins then). Counts only while it waits; its caller answers directly after.

/** How long no request is in flight for a moment of quiet. */
export const QUIET_MS = 250;
/** The longest a moment of quiet is waited for (SPEC 10's 2 s). */
export const QUIET_MOST_MS = 2000;

/** A moment of quiet, waited for (see {@link quietMoment}). */
export interface QuietMoment {
  /** Settles at the moment of quiet (or at the bound). */
  readonly done: Promise<void>;
  /** Starts the wait: the first index is served. */
  begin(): void;
  /** Answers a request with `answer`, counted in flight while the wait lasts. */
  track(answer: () => Response | Promise<Response>): Response | Promise<Response>;
}

/**
 * A moment of quiet after a server's first index is served: `done` settles
 * once no request `track` counted has been in flight for `quietMs`, or
 * `mostMs` after `begin`, whichever comes first. The first load's watch
 * begins then (`live.ts`): the first requests, whose full feed grows with
 * the site as the load does, are answered first.
 *
 * @example
 * ```ts
 * import { quietMoment } from "./quiet.ts";
 * const quiet = quietMoment(250, 2000);
 * quiet.begin();
 * await quiet.track(() => Promise.resolve(new Response("ok")));
 * await quiet.done; // 250 ms after that answer
 * ```
 */
export function quietMoment(quietMs: number, mostMs: number): QuietMoment {
  let inFlight = 0;
  let begun = false;
  let finished = false;
  let resolve!: () => void;
  const done = new Promise<void>((settle) => resolve = settle);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let bound: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(bound);
    resolve();
  };
  const unref = <T>(handle: T) => ((handle as { unref?: () => void }).unref?.(), handle);
  const arm = () => {
    clearTimeout(timer);
    if (begun && inFlight === 0 && !finished) timer = unref(setTimeout(finish, quietMs));
  };
  const ended = () => {
    inFlight--;
    arm();
  };
  return {
    done,
    begin() {
      begun = true;
      bound = unref(setTimeout(finish, mostMs));
      arm();
    },
    track(answer: () => Response | Promise<Response>): Response | Promise<Response> {
      if (finished) return answer();
      inFlight++;
      clearTimeout(timer);
      let answered: Response | Promise<Response>;
      try {
        answered = answer();
      } catch (error) {
        ended();
        throw error;
      }
      if (answered instanceof Promise) answered.then(ended, ended);
      else ended();
      return answered;
    },
  };
}
