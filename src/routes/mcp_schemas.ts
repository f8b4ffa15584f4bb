// The MCP tools' `outputSchema`s (SPEC 14), made from the OpenAPI
// document's schemas, so that what `tools/list` promises is what the feed's
// routes are documented (and tested) to answer.
import type { ToolOutput } from "../outputs/mcp_tools.ts";
import { componentSchemas } from "./openapi_schemas.ts";

/** A JSON Schema, as an object. */
export type Schema = Record<string, unknown>;

/**
 * Stand-ins for the index's types and categories: the tool list is the
 * same for every index, so `type` and `category` are any string there (a
 * client keeps the schemas it was given while the site gains a type).
 */
const ANY_TYPE: string[] = [];
const ANY_CATEGORY: string[] = [];

/** Where the OpenAPI document's schemas refer to each other, and where a JSON Schema's `$defs` sit. */
const COMPONENTS = "#/components/schemas/";
const DEFS = "#/$defs/";

/**
 * A copy of an OpenAPI schema as a plain JSON Schema: references into
 * `$defs` (each one named is added to `used`), no `enum` of the
 * stand-ins.
 */
function plain(node: unknown, used: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((entry) => plain(entry, used));
  if (typeof node !== "object" || node === null) return node;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "enum" && (value === ANY_TYPE || value === ANY_CATEGORY)) continue;
    if (key === "$ref" && typeof value === "string" && value.startsWith(COMPONENTS)) {
      const name = value.slice(COMPONENTS.length);
      used.add(name);
      copy[key] = DEFS + name;
    } else copy[key] = plain(value, used);
  }
  return copy;
}

/** A root schema with the `$defs` it refers to, directly or through another definition. */
function withDefs(root: Schema, components: Record<string, unknown>): Schema {
  const used = new Set<string>();
  const made = plain(root, used) as Schema;
  const defs: Record<string, unknown> = {};
  for (const name of used) {
    // `used` grows while it is walked: a definition's own references are added and visited.
    defs[name] = plain(components[name], used);
  }
  return Object.keys(defs).length ? { ...made, $defs: defs } : made;
}

/**
 * The `outputSchema` of each kind of tool answer, each an object schema
 * at its root as MCP asks (no `$schema`: MCP's
 * default dialect, JSON Schema 2020-12, and what draft-07 validators read
 * alike): the feed's answer (`list_content`, `search_content`,
 * `list_changes`), an item's metadata (its JSON form without `body`) and
 * Markdown (`get_content`), the tags (`list_tags`).
 *
 * @example
 * ```ts
 * import { toolOutputSchemas } from "./mcp_schemas.ts";
 * const schemas = toolOutputSchemas();
 * schemas.feed.required; // ["meta", "data"]
 * schemas.item.required; // ["item", "markdown"]
 * ```
 */
export function toolOutputSchemas(): Record<ToolOutput, Schema> {
  const components = componentSchemas({ types: ANY_TYPE, categories: ANY_CATEGORY });
  const detail = components.ItemDetail as Schema & {
    required: string[];
    properties: Schema;
  };
  const { body: _, ...metadata } = detail.properties;
  components.Metadata = {
    ...detail,
    required: detail.required.filter((name) => name !== "body"),
    properties: metadata,
  };
  return {
    feed: withDefs(components.Feed as Schema, components),
    item: withDefs({
      type: "object",
      additionalProperties: false,
      required: ["item", "markdown"],
      properties: {
        item: { $ref: `${COMPONENTS}Metadata` },
        markdown: { type: "string", description: "the item's Markdown form, as its .md URL" },
      },
    }, components),
    tags: withDefs({
      type: "object",
      additionalProperties: false,
      required: ["tags"],
      properties: { tags: { type: "array", items: { $ref: `${COMPONENTS}Tag` } } },
    }, components),
  };
}
