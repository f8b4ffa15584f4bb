/**
 * content-feed: one fast, exact JSON feed of a site's Markdown content,
 * `GET /api/content.json`, for the machines that index a site.
 *
 * The service is {@link createContentApi}: it loads a content folder (or a
 * snapshot) into an index and returns a `fetch(Request)` handler. The pure
 * parts it is made of (query parsing, filtering, rendering, the index
 * build) are here too, for callers that build feeds themselves.
 *
 * @example
 * ```ts
 * import { createContentApi } from "./mod.ts";
 * const api = await createContentApi({ config: "content/services.yaml" });
 * const response = await api.fetch(new Request("http://localhost:8000/api/content.json?limit=1"));
 * ```
 *
 * @module
 */
export {
  type ContentApi,
  type ContentApiOptions,
  createContentApi,
  type Logger,
} from "./src/service.ts";
export {
  CONFIG_KEY,
  ConfigError,
  type ContentConfig,
  type ContentPluginConfig,
} from "./src/config/types.ts";
export { parseConfig } from "./src/config/parse.ts";
export { validateConfig } from "./src/config/validate.ts";
export { loadConfigFile, loadConfigObject } from "./src/config/load.ts";
export { CONTENT_PLUGINS, type ContentPluginName } from "./src/plugins.ts";
export type { LeftOutReason, ParsedFile, Warning } from "./src/source/parsed_file.ts";
export type { IndexedFile } from "./src/fields/indexed_file.ts";
export type { FileFields, NotIndexable } from "./src/fields/derive.ts";
export type { NameSlug } from "./src/fields/names.ts";
export {
  buildIndex,
  type BuildOptions,
  type Index,
  type IndexReuse,
  type IndexSettings,
  type PluginSettings,
} from "./src/index/build.ts";
export type { Item, Tag } from "./src/index/item.ts";
export {
  FEED_PARAMETERS,
  type Filters,
  INCLUDE_FIELDS,
  type IncludeField,
  ITEM_FIELDS,
  type ItemField,
  parseQuery,
  type QueryProblem,
  type QueryVocabulary,
  SEED_FIELDS,
  SORT_ORDERS,
  type SortOrder,
} from "./src/feed/query.ts";
export { filterItems, type Page, paginate, sortItems } from "./src/feed/filter.ts";
export type { Contains } from "./src/feed/search.ts";
export {
  type ChangedItems,
  type FeedBytes,
  type ItemExtras,
  itemJson,
  renderChangesBytes,
  renderFeed,
  renderFeedBytes,
  renderFullFeed,
  type RenderOptions,
  shapedItemJson,
} from "./src/feed/render.ts";
export { type Cursor, formatCursor, parseCursor } from "./src/sync/cursor.ts";
export {
  type Change,
  type ChangesAnswer,
  changesSince,
  cursorProblem,
} from "./src/sync/changes_since.ts";
export type { JournalEntry, JournalState } from "./src/sync/state.ts";
export { type Section, sectionsOf } from "./src/text/sections.ts";
export { type TextBlock, textBlocks } from "./src/text/blocks.ts";
export { renderItem } from "./src/feed/item_form.ts";
export { renderSitemap } from "./src/feed/sitemap.ts";
export { itemMarkdown, markdownUrl } from "./src/outputs/markdown.ts";
export { renderLlmsFull, renderLlmsTxt } from "./src/outputs/llms.ts";
export { JSON_FEED_PAGE, renderJsonFeed } from "./src/outputs/json_feed.ts";
export { pageLinks } from "./src/feed/links.ts";
export {
  makeSnapshot,
  type Snapshot,
  type SnapshotFile,
  type SnapshotJournal,
  writeSnapshotFile,
} from "./src/snapshot.ts";
export { slugify } from "./src/util/slugify.ts";
export {
  checkContent,
  type CheckReport,
  checkReportJson,
  formatCheckReport,
  LEFT_OUT_REASONS,
  type LeftOut,
  type PluginReport,
} from "./src/cli/check.ts";
