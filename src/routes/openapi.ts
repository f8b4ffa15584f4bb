import { SORT_ORDERS } from "../feed/filter.ts";
import type { Index } from "../index/build.ts";
import { INCLUDE_FIELDS, ITEM_FIELDS } from "../index/item_fields.ts";
import { componentSchemas } from "./openapi_schemas.ts";
import { MAX_LIMIT, MAX_SEARCH, SINCE_COMBINES } from "./query.ts";
import { type RouteName, ROUTES } from "./table.ts";

const DAY = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };

/** What every route does with campaign tags and cache-busters (SPEC 6.1). */
const IGNORED = "Query parameters whose name starts with utm_ or _ (campaign tags, " +
  "cache-busters such as _=1700000000) are ignored on every route: never a 400, never " +
  "another answer (the same body, ETag and links as without them).";

/**
 * The OpenAPI 3.1 description of the service's routes (SPEC 8), with the
 * enabled types and categories as enums and the server at `base`.
 *
 * @example
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * import { buildIndex } from "../index/build_parsed.ts";
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro", tags: ["Deno"] }, body: "Hello, and welcome to the docs.",
 * }], {
 *   title: undefined, url: undefined, api: true, sitemap: true,
 *   plugins: [{ name: "docs", path: "docs" }],
 * }, 0);
 * openApiDocument(index, "https://example.com").openapi; // "3.1.0"
 * ```
 */
export function openApiDocument(index: Index, base: string): Record<string, unknown> {
  const q = (name: string, description: string, schema: Record<string, unknown>) => ({
    name,
    in: "query",
    required: false,
    description,
    schema,
  });
  const include = q("include", "opt-in fields to add to every item (comma list)", {
    type: "string",
    pattern: `^(?:(?:${INCLUDE_FIELDS.join("|")})(?:,|$))*$`,
  });
  const itemInclude = q("include", "opt-in fields to add: url, text, sections (comma list)", {
    type: "string",
    pattern: `^(?:(?:${INCLUDE_FIELDS.filter((f) => f !== "body").join("|")})(?:,|$))*$`,
  });
  const problem = (description: string) => ({
    description,
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  });
  const bool = { type: "string", enum: ["true", "false", "1", "0"] };
  // The feed's filters, which /feed.json takes too.
  const filters = [
    q("type", "exact type", { type: "string", enum: index.types }),
    q("category", "exact category", { type: "string", enum: index.categories }),
    q("lang", "exact locale (BCP 47) of the item's page", { type: "string", enum: index.langs }),
    q("version", "exact version of the item's page", { type: "string", enum: index.versions }),
    q("tag", "tag, compared after slugify", { type: "string" }),
    q("author", "author, compared after slugify", { type: "string" }),
    q(
      "search",
      "every term occurs in title, description or body (case and accents ignored)",
      {
        type: "string",
        maxLength: MAX_SEARCH,
      },
    ),
    q("year", "year of date", { type: "string", pattern: "^\\d{4}$" }),
    q("month", "month of date; needs year", {
      type: "string",
      pattern: "^(0?[1-9]|1[0-2])$",
    }),
    q("indexable", "indexable flag", bool),
    q("searchable", "searchable flag", bool),
  ];
  const typeAndUri = [
    { name: "type", in: "path", required: true, schema: { type: "string", enum: index.types } },
    {
      name: "uri",
      in: "path",
      required: true,
      description: "the item's uri; may contain '/'",
      schema: { type: "string" },
    },
  ];
  const text = (description: string, type: string) => ({
    description,
    content: { [type]: { schema: { type: "string" } } },
  });
  const operations: Record<RouteName, unknown> = {
    home: {
      get: {
        operationId: "getIndex",
        summary: "This index: the enabled routes, each with its URL, methods and summary",
        responses: {
          "200": {
            description: "The routes the configuration enables",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/RouteIndex" } },
            },
          },
          "304": { description: "Not modified" },
        },
      },
    },
    feed: {
      get: {
        operationId: "getContent",
        description: IGNORED,
        summary: "Every feed-eligible item, filtered and paged",
        parameters: [
          ...filters,
          q("limit", "items per page", { type: "integer", minimum: 1, maximum: MAX_LIMIT }),
          q("page", "page number; needs limit", { type: "integer", minimum: 1, default: 1 }),
          q("updated_since", "items whose last_update is on or after that day", DAY),
          include,
          q(
            "fields",
            "the fields every item holds, in canonical order; id is always there " +
              "(fields=id,checksum,last_update is the site's manifest)",
            {
              type: "string",
              pattern: `^(?:(?:${ITEM_FIELDS.join("|")})(?:,|$))*$`,
            },
          ),
          q("sort", "the order of the matches before paging; ties keep feed order", {
            type: "string",
            enum: [...SORT_ORDERS],
            default: "feed",
          }),
          q(
            "since",
            "the changes after a cursor from meta.cursor (or 0: every current item, listed as " +
              "of the first page, then the changes made while paging), with " +
              `deleted ids in 'deleted'; combines with ${SINCE_COMBINES.join(", ")} only`,
            {
              type: "string",
              pattern: "^(?:0|[0-9a-z]{1,32}\\.(?:0|[1-9][0-9]{0,15})(?:_[1-9][0-9]{0,15})?)$",
            },
          ),
        ],
        responses: {
          "200": {
            description: "The feed, or with since the changes after the cursor",
            headers: {
              Link: {
                description: "RFC 8288 first/prev/next/last links when limit is given; " +
                  "with since, the next page of changes while meta.more is true",
                schema: { type: "string" },
              },
              ETag: { schema: { type: "string" } },
            },
            content: { "application/json": { schema: { $ref: "#/components/schemas/Feed" } } },
          },
          "304": { description: "Not modified" },
          "400": problem(
            "A bad query: the detail names the parameter (utm_* and _* are ignored, never bad)",
          ),
          "410": problem(
            "A cursor the journal cannot answer (another journal, past the head, older than " +
              "the retention): sync again from since=0",
          ),
          "503": problem("A file changed while its body was read; try again"),
        },
      },
    },
    openapi: {
      get: {
        operationId: "getOpenApi",
        summary: "This document",
        responses: {
          "200": {
            description: "OpenAPI 3.1",
            content: { "application/json": { schema: { type: "object" } } },
          },
        },
      },
    },
    health: {
      get: {
        operationId: "getHealth",
        summary: "Whether the server answers from an index: its item counts, build time and " +
          "cursor (never cached)",
        responses: {
          "200": {
            description: "Serving: status ok",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/Health" } },
            },
          },
          "503": {
            description: "Starting: the first index is being built (Retry-After says when to ask " +
              "again); every other route answers a 503 problem meanwhile",
            headers: { "Retry-After": { schema: { type: "string" } } },
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["status"],
                  properties: { status: { const: "starting" } },
                },
              },
            },
          },
        },
      },
    },
    sitemap: {
      get: {
        operationId: "getSitemap",
        summary: "sitemaps.org urlset of the feed items",
        responses: {
          "200": {
            description: "Sitemap",
            content: { "application/xml": { schema: { type: "string" } } },
          },
        },
      },
    },
    item: {
      get: {
        operationId: "getItem",
        description: IGNORED,
        summary: "An item's JSON form (every non-draft item, indexable or not)",
        parameters: [...typeAndUri, itemInclude],
        responses: {
          "200": {
            description: "The item",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/ItemDetail" } },
            },
          },
          "304": { description: "Not modified" },
          "404": problem("No such item"),
          "503": problem("A file changed while its body was read; try again"),
        },
      },
    },
    markdown: {
      get: {
        operationId: "getItemMarkdown",
        summary: "An item's Markdown under a front matter of title, description, url and " +
          "last_update (the same items as the JSON form)",
        parameters: typeAndUri,
        responses: {
          "200": text("The item as Markdown", "text/markdown"),
          "304": { description: "Not modified" },
          "404": problem("No such item"),
          "503": problem("A file changed while its body was read; try again"),
        },
      },
    },
    llms: {
      get: {
        operationId: "getLlmsTxt",
        summary: "llms.txt (llmstxt.org): the site's title and description, then each " +
          "plugin's feed items linked to their Markdown",
        responses: {
          "200": text("llms.txt", "text/plain"),
          "304": { description: "Not modified" },
        },
      },
    },
    llmsFull: {
      get: {
        operationId: "getLlmsFullTxt",
        summary: "Every feed item's Markdown in feed order, each under its title and source URL",
        responses: {
          "200": text("llms-full.txt", "text/plain"),
          "304": { description: "Not modified" },
          "503": problem("A file changed while its body was read; try again"),
        },
      },
    },
    jsonFeed: {
      get: {
        operationId: "getJsonFeed",
        description: IGNORED,
        summary: "JSON Feed 1.1 of the feed items, newest date first, 50 a page (next_url)",
        parameters: [
          ...filters,
          q("page", "page number", { type: "integer", minimum: 1, default: 1 }),
        ],
        responses: {
          "200": {
            description: "A JSON Feed 1.1 document (https://www.jsonfeed.org/version/1.1/)",
            content: { "application/feed+json": { schema: { type: "object" } } },
          },
          "304": { description: "Not modified" },
          "400": problem(
            "A bad query: the detail names the parameter (utm_* and _* are ignored, never bad)",
          ),
          "503": problem("A file changed while its body was read; try again"),
        },
      },
    },
    mcp: {
      post: {
        operationId: "postMcp",
        summary: "Model Context Protocol over Streamable HTTP (stateless, JSON responses): " +
          "read-only tools list_content, search_content, get_content, list_tags, list_changes; " +
          "every item as a resource (its link as the URI, read as Markdown)",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: ["object", "array"] } } },
        },
        responses: {
          "200": {
            description: "JSON-RPC response(s); errors are JSON-RPC errors",
            content: { "application/json": { schema: { type: ["object", "array"] } } },
          },
          "202": { description: "Accepted (notifications and responses only)" },
          "400": {
            description: "A malformed body or batch, as a JSON-RPC error",
            content: { "application/json": { schema: { type: "object" } } },
          },
          "403": {
            description: "A Host or Origin this server does not answer (DNS rebinding " +
              "protection: mcp.allowed_origins), as a JSON-RPC error",
            content: { "application/json": { schema: { type: "object" } } },
          },
          "406": { description: "Accept must list application/json and text/event-stream" },
          "413": { description: "A body over 64 KiB" },
          "415": { description: "Content-Type must be application/json" },
        },
      },
    },
  };
  const paths: Record<string, unknown> = {};
  for (const route of ROUTES) {
    if (route.enabled(index.settings)) paths[route.openapiPath] = operations[route.name];
  }
  return {
    openapi: "3.1.0",
    info: {
      title: index.settings.title ? `${index.settings.title} content feed` : "Content feed",
      version: "1.0.0",
      description:
        "A flat JSON feed of a site's content for indexing pipelines, and its forms for LLMs " +
        "and agents. Errors are RFC 9457 problem documents (JSON-RPC errors on /api/mcp); " +
        "other methods than GET and HEAD (POST on /api/mcp) answer 405. " + IGNORED,
    },
    servers: [{ url: `${base}/` }],
    paths,
    components: { schemas: componentSchemas(index) },
  };
}
