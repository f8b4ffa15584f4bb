// The schemas of the OpenAPI document (SPEC 8): the item's from the field
// table (`index/item_fields.ts`), the others as the routes write them.
import { FIELD_TABLE, type Vocabulary } from "../index/item_fields.ts";
import { formShape, SEED_SHAPE } from "../index/shape.ts";

const nameSlug = {
  type: "object",
  required: ["name", "slug"],
  additionalProperties: false,
  properties: {
    name: { type: "string" },
    slug: { type: "string", pattern: "^[a-z0-9]+(?:-[a-z0-9]+)*$" },
  },
};

const TIMESTAMP = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$" };

/**
 * The feed item's schema (every field but `id` may be left out by
 * `fields`) and the item form's (the seed's fields, `body`, `parent` and
 * `children` always; `url`, `text` and `sections` when asked for).
 */
function itemSchemas(vocabulary: Vocabulary) {
  const feedFields = FIELD_TABLE.filter((spec) => spec.kind !== "form");
  const item = {
    type: "object",
    additionalProperties: false,
    required: ["id"],
    properties: Object.fromEntries(feedFields.map((spec) => [spec.name, spec.schema(vocabulary)])),
    description: "Without fields, every one of the seed's fields: " +
      SEED_SHAPE.fields.map((spec) => spec.name).join(", "),
  };
  const form = formShape(["url", "text", "sections"]).fields;
  const always = formShape([]).fields;
  const itemDetail = {
    type: "object",
    additionalProperties: false,
    required: always.map((spec) => spec.name),
    properties: Object.fromEntries(
      form.map((spec) => [spec.name, spec.formSchema ?? spec.schema(vocabulary)]),
    ),
  };
  return { item, itemDetail };
}

/**
 * The document's `components.schemas`: the feed, a section, the item and
 * its form, an author, a tag, a problem, the health answer and the index of
 * routes (`GET /`). `type` and `category` list the vocabulary's values (an
 * index is one).
 *
 * @example
 * ```ts
 * import { componentSchemas } from "./openapi_schemas.ts";
 * declare const index: import("../index/build.ts").Index;
 * Object.keys(componentSchemas(index));
 * // ["Feed", "Section", "Item", "ItemDetail", "Author", "Tag", "Problem", "Health", "RouteIndex"]
 * ```
 */
export function componentSchemas(vocabulary: Vocabulary): Record<string, unknown> {
  const { item, itemDetail } = itemSchemas(vocabulary);
  return {
    Feed: {
      type: "object",
      additionalProperties: false,
      required: ["meta", "data"],
      properties: {
        meta: {
          type: "object",
          additionalProperties: false,
          required: ["count", "total", "url", "generated", "cursor"],
          properties: {
            count: { type: "integer", minimum: 0, description: "items in data" },
            total: {
              type: "integer",
              minimum: 0,
              description: "matches before paging (with since: changes after the cursor)",
            },
            url: { type: "string", format: "uri" },
            generated: TIMESTAMP,
            cursor: {
              type: "string",
              description: "the change journal's position: where the next sync starts",
            },
            more: {
              type: "boolean",
              description: "with since: whether changes remain after cursor",
            },
          },
        },
        data: { type: "array", items: { $ref: "#/components/schemas/Item" } },
        deleted: {
          type: "array",
          description: "with since: the ids that left the feed after the cursor",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["id", "deleted"],
            properties: { id: { type: "string" }, deleted: TIMESTAMP },
          },
        },
      },
    },
    Section: {
      type: "object",
      additionalProperties: false,
      required: ["anchor", "heading", "path", "level", "text", "checksum"],
      properties: {
        anchor: { type: "string" },
        heading: { type: "string" },
        path: { type: "array", items: { type: "string" } },
        level: { type: "integer", minimum: 0, maximum: 3 },
        text: { type: "string" },
        checksum: { type: "string", pattern: "^[0-9a-f]{64}$" },
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
    Health: {
      type: "object",
      additionalProperties: false,
      required: ["status", "items", "feed", "built", "cursor"],
      properties: {
        status: { const: "ok" },
        items: { type: "integer", minimum: 0, description: "items the index serves" },
        feed: { type: "integer", minimum: 0, description: "of those, the items in the feed" },
        built: { type: "string", format: "date-time", description: "the index's build time" },
        cursor: { type: "string", description: "the feed's meta.cursor as of that index" },
      },
    },
    RouteIndex: {
      type: "object",
      additionalProperties: false,
      required: ["title", "openapi", "routes"],
      properties: {
        title: { type: "string" },
        description: { type: "string" },
        openapi: { type: "string", format: "uri", description: "this document" },
        routes: {
          type: "array",
          items: {
            type: "object",
            additionalProperties: false,
            required: ["path", "url", "methods", "summary"],
            properties: {
              path: { type: "string" },
              url: { type: "string", description: "a template where the path has parameters" },
              methods: { type: "array", items: { type: "string" } },
              summary: { type: "string" },
            },
          },
        },
      },
    },
  };
}
