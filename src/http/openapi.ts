import { INCLUDE_FIELDS, MAX_LIMIT, MAX_SEARCH } from "../feed/query.ts";
import type { Index } from "../index/build.ts";
import { type RouteName, ROUTES } from "./routes.ts";

const nameSlug = {
  type: "object",
  required: ["name", "slug"],
  additionalProperties: false,
  properties: {
    name: { type: "string" },
    slug: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" },
  },
};

const DAY = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };

/**
 * The OpenAPI 3.1 description of the service's routes (SPEC 8), with the
 * enabled types and categories as enums and the server at `base`.
 *
 * @example
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * import { buildIndex } from "../index/build.ts";
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
  // The seed's item fields, in order; every one is required.
  const itemProperties = {
    id: { type: "string", pattern: "^[a-z0-9_-]+$" },
    checksum: {
      type: "string",
      pattern: "^[0-9a-f]{64}$",
      description: "SHA-256 of the source file",
    },
    type: { type: "string", enum: index.types },
    category: { type: "string", enum: index.categories },
    uri: { type: "string" },
    link: { type: "string", format: "uri" },
    image: { type: ["string", "null"] },
    title: { type: "string" },
    description: { type: "string" },
    authors: { type: "array", items: { $ref: "#/components/schemas/Author" } },
    tags: { type: "array", items: { $ref: "#/components/schemas/Tag" } },
    date: DAY,
    last_update: DAY,
    time: { type: "integer", minimum: 0, description: "reading time in minutes" },
  };
  // Opt-in fields (SPEC 6.2 `include`): present only when asked for.
  const optIn = {
    url: { type: "string", format: "uri", description: "the item's page on the site" },
  };
  const item = {
    type: "object",
    additionalProperties: false,
    required: Object.keys(itemProperties),
    properties: { ...itemProperties, ...optIn },
  };
  const detailProperties = {
    ...itemProperties,
    body: { type: "string" },
    parent: { type: ["string", "null"] },
    children: { type: "array", items: { type: "string" } },
  };
  const itemDetail = {
    ...item,
    required: Object.keys(detailProperties),
    properties: { ...detailProperties, ...optIn },
  };
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
  const problem = (description: string) => ({
    description,
    content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
  });
  const bool = { type: "string", enum: ["true", "false", "1", "0"] };
  const operations: Record<RouteName, unknown> = {
    feed: {
      get: {
        operationId: "getContent",
        summary: "Every feed-eligible item, filtered and paged",
        parameters: [
          q("type", "exact type", { type: "string", enum: index.types }),
          q("category", "exact category", { type: "string", enum: index.categories }),
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
          q("limit", "items per page", { type: "integer", minimum: 1, maximum: MAX_LIMIT }),
          q("page", "page number; needs limit", { type: "integer", minimum: 1, default: 1 }),
          include,
        ],
        responses: {
          "200": {
            description: "The feed",
            headers: {
              Link: {
                description: "RFC 8288 first/prev/next/last links when limit is given",
                schema: { type: "string" },
              },
              ETag: { schema: { type: "string" } },
            },
            content: { "application/json": { schema: { $ref: "#/components/schemas/Feed" } } },
          },
          "304": { description: "Not modified" },
          "400": problem("A bad query: the detail names the parameter"),
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
        summary: "An item's JSON form (every non-draft item, indexable or not)",
        parameters: [
          {
            name: "type",
            in: "path",
            required: true,
            schema: { type: "string", enum: index.types },
          },
          {
            name: "uri",
            in: "path",
            required: true,
            description: "the item's uri; may contain '/'",
            schema: { type: "string" },
          },
          include,
        ],
        responses: {
          "200": {
            description: "The item",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/ItemDetail" } },
            },
          },
          "304": { description: "Not modified" },
          "404": problem("No such item"),
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
        "A flat JSON feed of a site's content for indexing pipelines. Errors are RFC 9457 problem documents; " +
        "other methods than GET and HEAD answer 405.",
    },
    servers: [{ url: `${base}/` }],
    paths,
    components: {
      schemas: {
        Feed: {
          type: "object",
          additionalProperties: false,
          required: ["meta", "data"],
          properties: {
            meta: {
              type: "object",
              additionalProperties: false,
              required: ["count", "total", "url", "generated"],
              properties: {
                count: { type: "integer", minimum: 0 },
                total: { type: "integer", minimum: 0 },
                url: { type: "string", format: "uri" },
                generated: {
                  type: "string",
                  pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$",
                },
              },
            },
            data: { type: "array", items: { $ref: "#/components/schemas/Item" } },
          },
        },
        Item: item,
        ItemDetail: itemDetail,
        Author: nameSlug,
        Tag: {
          ...nameSlug,
          required: ["name", "slug", "count"],
          properties: { ...nameSlug.properties, count: { type: "integer", minimum: 0 } },
        },
        Problem: {
          type: "object",
          required: ["type", "title", "status", "detail"],
          properties: {
            type: { type: "string" },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
          },
        },
      },
    },
  };
}
