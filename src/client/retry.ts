// One GET of the feed, retried (bounded) after what passes: a network
// error, a body cut short, a `5xx`, a `408` or a `429`, with exponential
// backoff and jitter, never sooner than a `Retry-After` asks.
import { FeedError } from "./feed_error.ts";
import type { RetryOptions } from "./types.ts";

/** A response and its body parsed as JSON (`undefined` when empty or not JSON, for an error). */
export interface Fetched {
  readonly response: Response;
  readonly body: unknown;
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The retry settings with every default filled in. */
export type RetrySettings = Required<RetryOptions>;

/** The defaults: 6 retries, 250 ms doubled each time, 30 s at most. */
export const RETRY_DEFAULTS: RetrySettings = { retries: 6, baseDelayMs: 250, maxDelayMs: 30_000 };

const RETRIED = (status: number) => status >= 500 || status === 408 || status === 429;

/**
 * GETs `url` and parses its JSON, retrying a network error (or a body cut
 * short), a `5xx`, a `408` or a `429` up to `retry.retries` times: the
 * wait doubles from `retry.baseDelayMs` (with jitter, at most
 * `retry.maxDelayMs`) and is never shorter than the response's
 * `Retry-After`; a `Retry-After` longer than `maxDelayMs` ends the retries
 * at once. Other statuses are returned with their body for the caller to
 * judge. `sleep` and `random` are the clock and the jitter (a test passes
 * its own).
 *
 * @example
 * ```ts
 * import { getJson, RETRY_DEFAULTS } from "./retry.ts";
 * const { response, body } = await getJson(
 *   (request) => fetch(request),
 *   new URL("http://localhost:8000/api/content.json?limit=1"),
 *   new Headers(),
 *   RETRY_DEFAULTS,
 * );
 * ```
 */
export async function getJson(
  fetcher: (request: Request) => Promise<Response>,
  url: URL,
  headers: Headers,
  retry: RetrySettings,
  signal?: AbortSignal,
  sleep: Sleep = abortableSleep,
  random: () => number = Math.random,
): Promise<Fetched> {
  for (let attempt = 0;; attempt++) {
    signal?.throwIfAborted();
    let failure: FeedError;
    let asked: number | undefined;
    try {
      const response = await fetcher(new Request(url, { headers, signal }));
      const text = await response.text();
      if (RETRIED(response.status)) {
        const detail = problemDetail(text);
        failure = new FeedError(
          `${url}: ${response.status}${detail ? `: ${detail}` : ""}`,
          { status: response.status, url: url.href, detail },
        );
        asked = retryAfter(response.headers.get("retry-after"));
      } else if (!response.ok) {
        return { response, body: parseOrUndefined(text) };
      } else {
        // A 200 whose JSON does not parse was cut short (or is not the feed): tried again.
        return { response, body: text === "" ? undefined : JSON.parse(text) };
      }
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      failure = new FeedError(`${url}: ${error instanceof Error ? error.message : error}`, {
        url: url.href,
        cause: error,
      });
    }
    if (attempt >= retry.retries) throw failure;
    if (asked !== undefined && asked > retry.maxDelayMs) {
      throw new FeedError(
        `${failure.message} (the server asks to retry after ${
          Math.ceil(asked / 1000)
        } s, longer than maxDelayMs)`,
        { status: failure.status, url: failure.url, detail: failure.detail },
      );
    }
    const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** attempt) *
      (0.5 + random() / 2);
    await sleep(Math.max(backoff, asked ?? 0), signal);
  }
}

/**
 * A `Retry-After` value in milliseconds from now: delay-seconds or an HTTP
 * date; `undefined` when absent or not one of those.
 *
 * @example
 * ```ts
 * import { retryAfter } from "./retry.ts";
 * retryAfter("2"); // 2000
 * retryAfter(null); // undefined
 * ```
 */
export function retryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A problem's `detail` (RFC 9457), or the start of a body that is not one. */
function problemDetail(text: string): string | undefined {
  const body = parseOrUndefined(text) as { detail?: unknown } | undefined;
  if (typeof body?.detail === "string") return body.detail;
  return text.trim() === "" ? undefined : text.trim().slice(0, 200);
}

function parseOrUndefined(text: string): unknown {
  try {
    return text === "" ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
