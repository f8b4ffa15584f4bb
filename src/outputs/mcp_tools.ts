import * as z from "zod";
import type { Item } from "../index/item.ts";

/**
 * What the tools read (SPEC 14): the feed's own answers, so that a tool
 * says exactly what `GET /api/content.json` says for the same filters, and
 * the item forms the routes serve.
 */
export interface ToolBackend {
  /** The answer of `GET /api/content.json?{query}`: its status and body. */
  feed(query: URLSearchParams): Promise<{ readonly status: number; readonly body: string }>;
  /** The feed item an id or a link names (a page URL, its `.json` or `.md` form). */
  find(ref: { readonly id?: string; readonly link?: string }): Item | undefined;
  /** An item's metadata (its JSON form without `body`) and its Markdown form. */
  forms(item: Item): Promise<{ readonly metadata: string; readonly markdown: string }>;
  /** Every tag of the feed with the number of feed items carrying it. */
  tags(): readonly { readonly name: string; readonly slug: string; readonly count: number }[];
}

/** What a tool call answers: text blocks, marked as an error when the call could not be served. */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

/**
 * Arguments a tool refuses (a JSON-RPC `-32602` error, SPEC 14): a type
 * out of range, an unknown argument, a filter value the feed does not
 * accept. The message names the argument.
 */
export class ToolArgumentError extends Error {
  override name = "ToolArgumentError";
}

/** One read-only tool of the MCP server. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Its arguments as JSON Schema, for `tools/list`. */
  readonly inputSchema: { type: "object"; [key: string]: unknown };
  /** Runs it: the arguments are checked first ({@link ToolArgumentError} when they do not fit). */
  call(args: unknown, backend: ToolBackend): Promise<ToolResult>;
}

/** Items a `list_content` page holds at most (an agent's context is not a pipeline's). */
export const MAX_LIST = 100;
/** Matches `search_content` returns at most (SPEC 14). */
export const MAX_SEARCH_RESULTS = 50;
/** Changes one `list_changes` call returns at most. */
export const MAX_CHANGES = 1000;

const text = (value: string): ToolResult => ({ content: [{ type: "text", text: value }] });
const failed = (value: string): ToolResult => ({ ...text(value), isError: true });

const optionalText = z.string().min(1).optional();
const listArgs = z.object({
  type: optionalText.describe("a content type, e.g. docs or blog"),
  category: optionalText.describe("a category, e.g. doc or post"),
  lang: optionalText.describe("a locale of the site, e.g. en or fr"),
  version: optionalText.describe("a version of the site's pages, e.g. 2.0"),
  tag: optionalText.describe("a tag slug"),
  author: optionalText.describe("an author's name"),
  year: optionalText.describe("a year of `date`, e.g. 2026"),
  month: z.number().int().min(1).max(12).optional().describe("a month of `date` (needs year)"),
  search: z.string().min(1).max(200).optional().describe("words every match contains"),
  sort: z.enum(["feed", "date", "-date", "last_update", "-last_update", "title"]).optional(),
  updated_since: optionalText.describe("items updated on or after this day (YYYY-MM-DD)"),
  limit: z.number().int().min(1).max(MAX_LIST).default(20),
  page: z.number().int().min(1).default(1),
}).strict();
const searchArgs = z.object({
  query: z.string().min(1).max(200).describe(
    "words every match contains (case and accents ignored)",
  ),
  type: optionalText.describe("a content type, e.g. docs or blog"),
  lang: optionalText.describe("a locale of the site, e.g. en or fr"),
  version: optionalText.describe("a version of the site's pages, e.g. 2.0"),
  limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(10),
}).strict();
const getArgs = z.object({
  id: optionalText.describe("an item's id, as the other tools list it"),
  link: optionalText.describe("an item's page URL, or its .json or .md URL"),
}).strict().refine((args) => (args.id === undefined) !== (args.link === undefined), {
  message: "give an id or a link, not both",
});
const tagArgs = z.object({}).strict();
const changeArgs = z.object({
  cursor: z.string().min(1).default("0").describe(
    "meta.cursor of the last answer; 0 for everything",
  ),
  limit: z.number().int().min(1).max(MAX_CHANGES).default(100),
  type: optionalText.describe("only changes of this content type"),
  category: optionalText.describe("only changes of this category"),
}).strict();

/** Checks arguments against a schema: the value, or the first problem, naming the argument. */
function parse<S extends z.ZodType>(schema: S, args: unknown): z.output<S> {
  const checked = schema.safeParse(args ?? {});
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  const where = issue.path.length ? `${issue.path.join(".")}: ` : "";
  const detail = issue.code === "unrecognized_keys"
    ? `unknown argument ${issue.keys.map((key) => JSON.stringify(key)).join(", ")}`
    : issue.message;
  throw new ToolArgumentError(`${where}${detail}`);
}

/** A query string of the arguments given (numbers and words as the feed's parameters spell them). */
function queryOf(args: Record<string, unknown>): URLSearchParams {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (value !== undefined) query.set(key, String(value));
  }
  return query;
}

/**
 * Asks the feed: its body when it answered `200`; a `400` (a filter value
 * it does not accept) is the caller's argument; a `410` (a cursor too old)
 * is a tool error saying what to do.
 */
async function askFeed(
  backend: ToolBackend,
  query: URLSearchParams,
  renamed: Record<string, string> = {},
): Promise<ToolResult> {
  const { status, body } = await backend.feed(query);
  if (status === 200) return text(body);
  let detail = (JSON.parse(body) as { detail?: string }).detail ?? `status ${status}`;
  // The feed names its parameter; the caller knows it by the tool's name for it.
  for (const [parameter, argument] of Object.entries(renamed)) {
    if (detail.startsWith(parameter)) detail = argument + detail.slice(parameter.length);
  }
  if (status === 400) throw new ToolArgumentError(detail);
  return failed(detail);
}

/** The JSON Schema of a tool's arguments, as `tools/list` gives it. */
function schemaOf(schema: z.ZodType): Tool["inputSchema"] {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return { ...json, type: "object" };
}

/**
 * The server's read-only tools (SPEC 14), each answered from the index
 * through the feed's own routes: `list_content` (the feed's filters, a page
 * at a time), `search_content` (`query`, `type`, `limit` up to 50),
 * `get_content` (an `id` or a `link`: metadata and the Markdown),
 * `list_tags`, and `list_changes` (`cursor`, `limit`: SPEC 12).
 *
 * @example
 * ```ts
 * import { TOOLS } from "./mcp_tools.ts";
 * TOOLS.map((tool) => tool.name);
 * // ["list_content", "search_content", "get_content", "list_tags", "list_changes"]
 * ```
 */
export const TOOLS: readonly Tool[] = [
  {
    name: "list_content",
    title: "List content",
    description:
      "Lists the site's published content, filtered as the JSON feed filters it, a page at a time: " +
      "id, type, category, title, description, authors, tags, dates and link of each item, " +
      "with meta.count and meta.total. Use get_content for an item's text.",
    inputSchema: schemaOf(listArgs),
    call: (args, backend) => askFeed(backend, queryOf(parse(listArgs, args))),
  },
  {
    name: "search_content",
    title: "Search content",
    description: "Finds items whose title, description or body contain every word of the query " +
      "(case and accents ignored), in feed order. Use get_content with an id for the full text.",
    inputSchema: schemaOf(searchArgs),
    call: (args, backend) => {
      const { query, ...rest } = parse(searchArgs, args);
      return askFeed(backend, queryOf({ search: query, ...rest }), { search: "query" });
    },
  },
  {
    name: "get_content",
    title: "Get an item",
    description:
      "One item by its id or its link: first its metadata (JSON: title, description, url, " +
      "dates, tags, parent, children), then its Markdown under a small front matter.",
    inputSchema: schemaOf(getArgs),
    call: async (args, backend) => {
      const ref = parse(getArgs, args);
      const item = backend.find(ref);
      if (!item) {
        return failed(
          `no published item has ${ref.id !== undefined ? "id" : "link"} ${
            JSON.stringify(ref.id ?? ref.link)
          }; list_content and search_content give the ids`,
        );
      }
      const { metadata, markdown } = await backend.forms(item);
      return { content: [{ type: "text", text: metadata }, { type: "text", text: markdown }] };
    },
  },
  {
    name: "list_tags",
    title: "List tags",
    description:
      "Every tag of the published content with how many items carry it, most used first; " +
      "pass a tag's slug to list_content's tag filter.",
    inputSchema: schemaOf(tagArgs),
    call: (args, backend) => {
      parse(tagArgs, args);
      return Promise.resolve(text(JSON.stringify(backend.tags())));
    },
  },
  {
    name: "list_changes",
    title: "List changes",
    description:
      "What changed since a cursor (0: everything): items that entered or changed, ids that " +
      "left (deleted), and meta.cursor to pass next time; meta.more while more remain.",
    inputSchema: schemaOf(changeArgs),
    call: (args, backend) => {
      const { cursor, ...rest } = parse(changeArgs, args);
      return askFeed(backend, queryOf({ since: cursor, ...rest }), { since: "cursor" });
    },
  },
];
