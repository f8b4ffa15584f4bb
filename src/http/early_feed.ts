// A restarting server's answers while it loads, when it found the content as
// the last server left it (SPEC 17): the full feed that server kept, with its
// ETags, and for every other request what a starting server answers.
import type { FeedImage } from "../pipeline/feed_image.ts";
import { MAX_URL } from "./answer_store.ts";
import type { Handler } from "./handler.ts";
import { hostProblem } from "./host.ts";
import { mountOf } from "./mount.ts";
import { codingFor } from "./encoding.ts";
import { answerReady, keptRepresentation, sendRepresentation } from "./representation.ts";
import type { HttpSettings } from "./settings.ts";
import { inSlices, SLICE } from "./slices.ts";

/**
 * The handler of a restart that serves the last server's full feed before
 * its own index is built: `GET` and `HEAD` of the full feed's URL (no
 * query) are answered from `image` as the service answers them (its
 * bytes, encodings, ETags and `Last-Modified`, `304` to a matching
 * `If-None-Match`); every other request goes to `starting` (a `503` while
 * the index is built). Only for a start whose base URL is `image.base`:
 * the links in the bytes are written with it.
 *
 * A body larger than `slice` bytes is handed to the runtime a slice at a
 * time, and `answered` learns when the last slice was taken: the runtime
 * writes a response's bytes on the thread that runs the load, so a load
 * begun while a large answer is still being written holds it back (at
 * 100,000 files, a kept feed of 15 MB was read whole seconds after it was
 * answered). A smaller body goes in one write, and every body where the
 * runtime would send a stream without its length (`Tuning.streamsKeepLength`).
 * An encoding the image does not hold is not made while the index is built:
 * such a request gets the bytes as they are (`Vary: Accept-Encoding` says so).
 *
 * @param basePath the base URL's path (`/content`), or `""`
 * @param answered told each time the full feed is answered, with when its
 *   body was taken whole (at once for a `HEAD`, a `304` or a small body; on
 *   a client gone too)
 * @param slice the bytes handed to the runtime at a time (default 64 KiB)
 *
 * @example
 * ```ts
 * import { createEarlyFeedHandler } from "./early_feed.ts";
 * import { createStartingHandler } from "./starting.ts";
 * declare const image: import("../pipeline/feed_image.ts").FeedImage;
 * const settings = { cors: true, cacheControl: "public, max-age=60" };
 * const handle = createEarlyFeedHandler(image, settings, "", createStartingHandler(settings, ""));
 * ```
 */
export function createEarlyFeedHandler(
  image: FeedImage,
  settings: HttpSettings,
  basePath: string,
  starting: Handler,
  answered: (sent: Promise<void>) => void = () => {},
  slice: number = SLICE,
): Handler {
  const R = settings.tuning?.Response ?? Response;
  const rep = keptRepresentation(
    image.type,
    image.bytes,
    image.etag,
    image.encoded,
    settings,
    image.builtAt,
  );
  const feedPath = `${basePath}/api/content.json`;
  return (request) => {
    const method = request.method;
    if (
      (method !== "GET" && method !== "HEAD") || mountOf(request) !== "" ||
      request.url.length > MAX_URL || hostProblem(request) !== undefined
    ) return starting(request);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return starting(request);
    }
    if (url.pathname !== feedPath || url.search !== "") return starting(request);
    // An encoding the last server did not keep (it wrote the feed as it stopped, never
    // asked for it) is not made now, beside the load: the bytes go as they are.
    if (!rep.ready.has(codingFor(request, rep.bytes.length))) {
      const headers = new Headers(request.headers);
      headers.set("accept-encoding", "identity");
      request = new Request(request.url, { method, headers });
    }
    const bytes = rep.ready.get(codingFor(request, rep.bytes.length))?.bytes;
    const sliced = method === "GET" && bytes !== undefined && bytes.length > slice &&
      settings.tuning?.streamsKeepLength === true;
    // A body given in slices takes its status and headers from a HEAD's answer (a 304 where the
    // validators match): a GET's would be a new Response holding a copy of the whole feed (85 MB
    // at 100,000 files) only to be dropped, for every request while the first index loads.
    const asked = sliced
      ? new Request(request.url, { method: "HEAD", headers: request.headers })
      : request;
    const handedOver = (response: Response): Response => {
      if (!sliced || response.status !== 200) {
        answered(Promise.resolve());
        return response;
      }
      let sent!: () => void;
      answered(new Promise<void>((resolve) => sent = resolve));
      // The same headers (their Content-Length among them), the same bytes.
      return new R(inSlices(bytes, sent, slice), { status: 200, headers: response.headers });
    };
    // Nothing built to clone: no cache counts this representation, and a built response would
    // hold a copy of the kept feed for the whole load.
    const answer = answerReady(asked, rep, settings, undefined, false) ??
      sendRepresentation(asked, rep, settings);
    return answer instanceof Response ? handedOver(answer) : answer.then(handedOver);
  };
}
