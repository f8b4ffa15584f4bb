// A restarting server's answers while it loads, when it found the content as
// the last server left it (SPEC 17): the full feed that server kept, with its
// ETags, and for every other request what a starting server answers.
import type { FeedImage } from "../pipeline/feed_image.ts";
import { MAX_URL } from "./answer_store.ts";
import type { Handler } from "./handler.ts";
import { hostProblem } from "./host.ts";
import { mountOf } from "./mount.ts";
import { answerReady, keptRepresentation, sendRepresentation } from "./representation.ts";
import type { HttpSettings } from "./settings.ts";

/**
 * The handler of a restart that serves the last server's full feed before
 * its own index is built: `GET` and `HEAD` of the full feed's URL (no
 * query) are answered from `image` as the service answers them (its
 * bytes, encodings, ETags and `Last-Modified`, `304` to a matching
 * `If-None-Match`); every other request goes to `starting` (a `503` while
 * the index is built). Only for a start whose base URL is `image.base`:
 * the links in the bytes are written with it.
 *
 * @param basePath the base URL's path (`/content`), or `""`
 * @param answered told each time the full feed is answered
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
  answered: () => void = () => {},
): Handler {
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
    answered();
    return answerReady(request, rep, settings) ?? sendRepresentation(request, rep, settings);
  };
}
