// When a server is first quiet: no request in flight for a moment, after
// its first index is served (SPEC 10, `live.ts`: the first load's watch
// begins then). Counts only while it waits; its caller answers directly after.
import { unref } from "../util/unref.ts";
import { inSlices, SLICE } from "./slices.ts";

/** How long no request is in flight for a moment of quiet. */
export const QUIET_MS = 250;
/**
 * When the wait for quiet ends whatever comes after (SPEC 10's 2 s): the
 * responses then in flight are finished first (see {@link quietMoment}).
 */
export const QUIET_MOST_MS = 2000;
/** The longest a moment of quiet is waited for, however long those responses take. */
export const QUIET_CAP_MS = 10_000;

/** How the wait for quiet counts requests. */
export interface QuietOptions {
  /** No request in flight for this long is a moment of quiet ({@link QUIET_MS}). */
  readonly quietMs: number;
  /**
   * This long after `begin`, only the requests in flight then are waited
   * for ({@link QUIET_MOST_MS}): a steady stream of requests does not put
   * the moment off.
   */
  readonly mostMs: number;
  /** The moment comes this long after `begin` whatever is in flight ({@link QUIET_CAP_MS}). */
  readonly capMs: number;
  /**
   * Whether a body given as a stream is sent with its `Content-Length`
   * (`Tuning.streamsKeepLength`): then a `GET`'s body larger than a slice
   * is handed to the runtime a slice at a time, and its request is in
   * flight until the last slice is taken. The runtime writes a response's
   * bytes on the thread that runs the watch's start and the catch-up's
   * listing: at 100,000 files, a restart's first full feed (15 MB of gzip)
   * was read whole 1.3–1.6 s later when they began as its response was
   * made. Elsewhere a request is in flight until its response is made.
   */
  readonly slices?: boolean;
}

/** A moment of quiet, waited for (see {@link quietMoment}). */
export interface QuietMoment {
  /** Settles at the moment of quiet. */
  readonly done: Promise<void>;
  /** Starts the wait: the first index is served. */
  begin(): void;
  /** Answers `request` with `answer`, counted in flight while the wait lasts. */
  track(
    request: Request,
    answer: () => Response | Promise<Response>,
  ): Response | Promise<Response>;
}

/**
 * A moment of quiet after a server's first index is served: `done` settles
 * once no request `track` counted has been in flight for `quietMs`, or
 * once the requests in flight `mostMs` after `begin` are answered (those
 * that come later do not count), or `capMs` after `begin`, whichever comes
 * first. The first load's watch begins then (`live.ts`): the first
 * requests, whose full feed grows with the site as the load does, are
 * answered first.
 *
 * @example
 * ```ts
 * import { quietMoment } from "./quiet.ts";
 * const quiet = quietMoment({ quietMs: 250, mostMs: 2000, capMs: 10_000 });
 * quiet.begin();
 * const request = new Request("http://localhost/");
 * await quiet.track(request, () => Promise.resolve(new Response("ok")));
 * await quiet.done; // 250 ms after that answer
 * ```
 */
export function quietMoment(options: QuietOptions): QuietMoment {
  /** The requests in flight, a token each. */
  const flying = new Set<object>();
  /** After `mostMs`: those of them still in flight then. */
  let older: Set<object> | undefined;
  let begun = false;
  let finished = false;
  let resolve!: () => void;
  const done = new Promise<void>((settle) => resolve = settle);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let bound: ReturnType<typeof setTimeout> | undefined;
  let cap: ReturnType<typeof setTimeout> | undefined;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    clearTimeout(bound);
    clearTimeout(cap);
    flying.clear();
    older = undefined;
    resolve();
  };
  const arm = () => {
    clearTimeout(timer);
    if (begun && flying.size === 0 && !finished) {
      timer = unref(setTimeout(finish, options.quietMs));
    }
  };
  const ended = (token: object) => {
    if (!flying.delete(token)) return;
    if (older?.delete(token) && older.size === 0) return finish();
    arm();
  };
  /**
   * The response, a `GET`'s body of known length in slices where that tells
   * when it is sent (`token` ends then), else as it is (`token` ends now).
   */
  const sent = (request: Request, response: Response, token: object): Response => {
    const body = response.body;
    const length = Number(response.headers.get("content-length") ?? Number.NaN);
    if (
      !options.slices || finished || request.method !== "GET" || response.status !== 200 ||
      body === null || !(length > SLICE)
    ) {
      ended(token);
      return response;
    }
    try {
      return new Response(inSlices(body, () => ended(token)), {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    } catch {
      // A body that cannot be read here (already locked): it goes as it is, counted no longer.
      ended(token);
      return response;
    }
  };
  return {
    done,
    begin() {
      begun = true;
      bound = unref(setTimeout(() => {
        // The requests in flight now are answered first; those asked for later wait their turn.
        if (flying.size === 0) return finish();
        older = new Set(flying);
      }, options.mostMs));
      cap = unref(setTimeout(finish, options.capMs));
      arm();
    },
    track(request, answer) {
      if (finished) return answer();
      const token = {};
      flying.add(token);
      clearTimeout(timer);
      let answered: Response | Promise<Response>;
      try {
        answered = answer();
      } catch (error) {
        ended(token);
        throw error;
      }
      if (answered instanceof Promise) {
        return answered.then((response) => sent(request, response, token), (error) => {
          ended(token);
          throw error;
        });
      }
      return sent(request, answered, token);
    },
  };
}
