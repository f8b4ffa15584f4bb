/**
 * content-feed: one fast, exact JSON feed of a site's Markdown content,
 * `GET /api/content.json`, for the machines that index a site.
 *
 * The service is {@link createContentApi}: it loads a content folder (or a
 * snapshot) into an index and returns a `fetch(Request)` handler to hand to
 * `Deno.serve`, `Bun.serve`, srvx, Hono's `mount` or a worker's
 * `export default`; {@link toNodeListener} turns it into a node:http
 * listener for `http.createServer`, Express and Fastify. Beside it: loading and validating a configuration,
 * building an index from parsed files, parsing a feed query, and reading and
 * writing snapshots for deployments without a file system. Everything else
 * is internal: tests and tools import it by path.
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
export { ConfigError, type ContentConfig, type ContentPluginConfig } from "./src/config/types.ts";
export { validateConfig } from "./src/config/validate.ts";
export { loadConfigFile, loadConfigObject } from "./src/config/load.ts";
export type { ParsedFile, Warning } from "./src/source/parsed_file.ts";
export type { LoadWork } from "./src/source/load_work.ts";
export { buildIndex } from "./src/index/build_parsed.ts";
export type { Index } from "./src/index/build.ts";
export type { IndexSettings, PluginSettings } from "./src/index/settings.ts";
export type { Item, Tag } from "./src/index/item.ts";
export type { Filters } from "./src/feed/filter.ts";
export { parseQuery, type Query } from "./src/routes/query.ts";
export { readSnapshotFile, type Snapshot, writeSnapshotFile } from "./src/snapshot.ts";
export {
  type NodeListener,
  type NodeListenerOptions,
  type NodeRequest,
  type NodeResponse,
  toNodeListener,
} from "./src/adapters/node_listener.ts";
