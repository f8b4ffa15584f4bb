import type { Contains } from "../feed/search.ts";
import type { Index } from "../index/build.ts";
import type { JournalState } from "../sync/state.ts";

/** What a route plans its answer from: the index, its journal, and the request, parsed. */
export interface RouteInput {
  /** The index that answers (read once per request, so a swap never splits one). */
  readonly index: Index;
  /** The journal as of `index` (`meta.cursor`, `since`). */
  readonly journal: JournalState;
  /** The base URL links are written with, without a trailing slash. */
  readonly base: string;
  /** The request URL's path (a `404` names it). */
  readonly pathname: string;
  /** The request's query parameters. */
  readonly query: URLSearchParams;
  /** The route's path parameters as the URL spells them (the item routes' `type` and `uri`). */
  readonly params: Readonly<Record<string, string>>;
  /**
   * What `search` looks into: the texts a service keeps (it reads the bodies
   * an index does not hold on the first search); without it, the items' own
   * bodies (an index that holds them: a snapshot).
   */
  readonly contains?: () => Promise<Contains>;
}
