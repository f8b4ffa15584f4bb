/**
 * content-feed: one fast, correct JSON feed of a site's Markdown content,
 * `GET /api/content.json`, for indexing pipelines.
 *
 * @example
 * ```ts
 * import { createContentApi } from "./mod.ts";
 * const api = await createContentApi({ config: "content/services.yaml" });
 * Deno.serve(api.fetch);
 * ```
 *
 * @module
 */
export {
  type ContentApi,
  type ContentApiOptions,
  createContentApi,
  type Logger,
} from "./src/api.ts";
export {
  CONFIG_KEY,
  ConfigError,
  type ContentConfig,
  type ContentPluginConfig,
  parseConfig,
  validateConfig,
} from "./src/config.ts";
export { loadConfigFile, loadConfigObject } from "./src/load_config.ts";
export { extract, FrontMatterError } from "./src/front_matter.ts";
export { fold, slugify } from "./src/slugify.ts";
export { formatDay, formatTimestamp, parseDate } from "./src/dates.ts";
export { CONTENT_PLUGINS, type ContentPluginName, PLUGINS } from "./src/plugins.ts";
export { buildIndex, type Index, type IndexSettings } from "./src/index/build.ts";
export type { Item, Tag } from "./src/index/item.ts";
export type { ParsedFile, Warning } from "./src/source/parsed_file.ts";
export { FEED_PARAMETERS, type Filters, parseQuery, type QueryProblem } from "./src/feed/query.ts";
export { filterItems, type Page, paginate } from "./src/feed/filter.ts";
export {
  itemJson,
  pageLinks,
  renderFeed,
  renderFeedBytes,
  renderFullFeed,
  renderItem,
  renderSitemap,
} from "./src/feed/render.ts";
export { openApiDocument } from "./src/http/openapi.ts";
export { makeSnapshot, type Snapshot, writeSnapshotFile } from "./src/snapshot.ts";
