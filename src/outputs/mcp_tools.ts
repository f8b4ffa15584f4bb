import * as z from "zod";
import type { Item } from "../index/item.ts";
import { quoteValue } from "../util/quote.ts";

/** The feed's answer or the problem a route answered instead (its `detail`). */
export type Answered<T> = T | { readonly problem: string };

/**
 * What the tools and resources read (SPEC 14): the feed's own answers, so
 * that a tool says exactly what `GET /api/content.json` says for the same
 * filters, and the item forms the routes serve.
 */
export interface ToolBackend {
  /** The answer of `GET /api/content.json?{query}`: its status and body. */
  feed(query: URLSearchParams): Promise<{ readonly status: number; readonly body: string }>;
  /**
   * The served item an id or a link names (a page URL, its `.json` or `.md`
   * form, on the base URL's or the site's origin, or root-relative).
   */
  find(ref: { readonly id?: string; readonly link?: string }): Item | undefined;
  /** An item's metadata (its JSON form without `body`) and its Markdown form. */
  forms(
    item: Item,
  ): Promise<Answered<{ readonly metadata: Record<string, unknown>; readonly markdown: string }>>;
  /** An item's Markdown form (`GET /{type}/{uri}.md`). */
  markdown(item: Item): Promise<Answered<string>>;
  /** Every tag of the feed with the number of feed items carrying it. */
  tags(): readonly { readonly name: string; readonly slug: string; readonly count: number }[];
  /** Every served item (the item routes' items) by `type/uri`. */
  served(): ReadonlyMap<string, Item>;
  /** The base URL the answers' links are on. */
  readonly base: string;
  /** The site's title, description and content types, for the server's instructions. */
  readonly site: {
    readonly title: string | undefined;
    readonly description: string | undefined;
    readonly types: readonly string[];
  };
}

/**
 * What a tool call answers: text blocks, and the same answer as JSON in
 * `structuredContent` (as the tool's `outputSchema` describes it); an
 * error is text alone, marked `isError`.
 */
export interface ToolResult {
  [key: string]: unknown;
  content: { type: "text"; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * What a tool's structured answer is, for its `outputSchema`
 * (`routes/mcp_schemas.ts` makes them from the OpenAPI document's): the
 * feed's answer, an item's metadata and Markdown, or the tags.
 */
export type ToolOutput = "feed" | "item" | "tags";

/** One read-only tool of the MCP server. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** Its arguments as JSON Schema, for `tools/list`. */
  readonly inputSchema: { type: "object"; [key: string]: unknown };
  /** What its `structuredContent` is. */
  readonly output: ToolOutput;
  /**
   * Runs it. Arguments that do not fit (a wrong type, out of range, an
   * unknown name, a value the feed refuses) are a tool error saying what
   * was wrong, never a thrown error: the model reads it and corrects itself.
   */
  call(args: unknown, backend: ToolBackend): Promise<ToolResult>;
}

/** Items a `list_content` page holds at most (an agent's context is not a pipeline's). */
export const MAX_LIST = 100;
/** Matches `search_content` returns at most (SPEC 14). */
export const MAX_SEARCH_RESULTS = 50;
/** Changes one `list_changes` call returns at most. */
export const MAX_CHANGES = 1000;

/** The longest text a filter argument may be (as the feed's `search`). */
const MAX_TEXT = 200;
/** The longest `link` (an item's URL) `get_content` reads. */
const MAX_LINK = 2048;

const failed = (value: string): ToolResult => ({
  content: [{ type: "text", text: value }],
  isError: true,
});
/** A result of JSON text and the same value as `structuredContent`. */
const structured = (text: string, value: Record<string, unknown>): ToolResult => ({
  content: [{ type: "text", text }],
  structuredContent: value,
});

const optionalText = z.string().min(1).max(MAX_TEXT).optional();
const listArgs = z.object({
  type: optionalText.describe("a content type, e.g. docs or blog"),
  category: optionalText.describe("a category, e.g. doc or post"),
  lang: optionalText.describe("a locale of the site, e.g. en or fr"),
  version: optionalText.describe("a version of the site's pages, e.g. 2.0"),
  tag: optionalText.describe("a tag slug (list_tags gives them)"),
  author: optionalText.describe("an author's name"),
  year: optionalText.describe("a year of `date`, e.g. 2026"),
  month: z.number().int().min(1).max(12).optional().describe("a month of `date` (needs year)"),
  search: optionalText.describe("words every match contains"),
  sort: z.enum(["feed", "date", "-date", "last_update", "-last_update", "title"]).optional(),
  updated_since: optionalText.describe("items updated on or after this day (YYYY-MM-DD)"),
  limit: z.number().int().min(1).max(MAX_LIST).default(20),
  page: z.number().int().min(1).default(1),
}).strict();
const searchArgs = z.object({
  query: z.string().min(1).max(MAX_TEXT).describe(
    "words every match contains (case and accents ignored)",
  ),
  type: optionalText.describe("a content type, e.g. docs or blog"),
  lang: optionalText.describe("a locale of the site, e.g. en or fr"),
  version: optionalText.describe("a version of the site's pages, e.g. 2.0"),
  limit: z.number().int().min(1).max(MAX_SEARCH_RESULTS).default(10),
}).strict();
/** What `get_content` takes, said when it is given neither. */
const ID_OR_LINK = "give an id (as list_content and search_content list it, e.g. " +
  '{"id": "docs_doc_intro"}) or a link (an item\'s page URL, or its .json or .md URL, e.g. ' +
  '{"link": "/docs/intro"})';
const getArgs = z.object({
  id: optionalText.describe("an item's id, as the other tools list it"),
  link: z.string().min(1).max(MAX_LINK).optional().describe(
    "an item's page URL, or its .json or .md URL (absolute on this site, or root-relative)",
  ),
}).strict()
  .refine((args) => args.id !== undefined || args.link !== undefined, { message: ID_OR_LINK })
  .refine((args) => args.id === undefined || args.link === undefined, {
    message: "give an id or a link, not both",
  });
const tagArgs = z.object({}).strict();
const changeArgs = z.object({
  cursor: z.string().min(1).max(MAX_TEXT).default("0").describe(
    "meta.cursor of the last answer; 0 for everything",
  ),
  limit: z.number().int().min(1).max(MAX_CHANGES).default(100),
  type: optionalText.describe("only changes of this content type"),
  category: optionalText.describe("only changes of this category"),
}).strict();

/** How a message names a value an argument was given: its kind, and a short quote of it. */
function given(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${quoteValue(value, 40)}`;
  return `${typeof value === "number" ? "the number" : typeof value} ${String(value)}`;
}

/** The kinds zod expects, as a message says them. */
const KINDS: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  object: "an object",
  boolean: "true or false",
};

const kind = (expected: string) => KINDS[expected] ?? expected;

/** One zod issue as a sentence naming the argument, what it takes and what it got. */
function issueText(issue: z.core.$ZodIssue, args: unknown): string {
  const name = issue.path.join(".");
  let value: unknown = args;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown>)?.[key];
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `${name} is required`;
      return `${name || "the arguments"} must be ${kind(issue.expected)}, not ${given(value)}`;
    case "too_big":
      return issue.origin === "string"
        ? `${name} is longer than ${issue.maximum} characters (${(value as string).length})`
        : `${name} must be at most ${issue.maximum}, not ${given(value)}`;
    case "too_small":
      return issue.origin === "string"
        ? `${name} must not be empty`
        : `${name} must be at least ${issue.minimum}, not ${given(value)}`;
    case "invalid_value":
      return `${name} must be one of ${issue.values.join(", ")}, not ${given(value)}`;
    case "unrecognized_keys": {
      const keys = issue.keys.slice(0, 10).map((key) => quoteValue(key, 40));
      return `unknown argument${keys.length > 1 ? "s" : ""} ${keys.join(", ")}`;
    }
    default:
      return name ? `${name}: ${issue.message}` : issue.message;
  }
}

/**
 * Checks arguments against a schema: the value, or a tool error saying
 * every problem (an argument's type, range or name), and what the tool
 * takes when a name was unknown.
 */
function parse<S extends z.ZodType>(
  tool: string,
  schema: S,
  args: unknown,
): { ok: z.output<S> } | { error: ToolResult } {
  const checked = schema.safeParse(args ?? {});
  if (checked.success) return { ok: checked.data };
  const issues = checked.error.issues.slice(0, 10);
  const problems = issues.map((issue) => issueText(issue, args ?? {}));
  if (issues.some((issue) => issue.code === "unrecognized_keys")) {
    const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    const names = Object.keys(shape);
    problems.push(
      names.length ? `${tool} takes ${names.join(", ")}` : `${tool} takes no arguments`,
    );
  }
  return { error: failed(`${tool}: ${problems.join("; ")}`) };
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
 * Asks the feed: its body (and the same as JSON) when it answered `200`;
 * else a tool error with the problem's detail: a `400` is a filter value
 * it does not accept (named as the tool names the argument), a `410` a
 * cursor too old, with what to do.
 */
async function askFeed(
  tool: string,
  backend: ToolBackend,
  query: URLSearchParams,
  renamed: Record<string, string> = {},
): Promise<ToolResult> {
  const { status, body } = await backend.feed(query);
  if (status === 200) return structured(body, JSON.parse(body));
  let detail = (JSON.parse(body) as { detail?: string }).detail ?? `status ${status}`;
  // The feed names its parameter; the caller knows it by the tool's name for it.
  for (const [parameter, argument] of Object.entries(renamed)) {
    if (detail.startsWith(parameter)) detail = argument + detail.slice(parameter.length);
  }
  return failed(`${tool}: ${detail}`);
}

/** The JSON Schema of a tool's arguments, as `tools/list` gives it. */
function schemaOf(schema: z.ZodType): Tool["inputSchema"] {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input" }) as Record<
    string,
    unknown
  >;
  return { ...json, type: "object" };
}

/** A tool whose arguments are checked against `schema` before `run` sees them. */
function tool<S extends z.ZodType>(
  spec: Omit<Tool, "call" | "inputSchema"> & {
    readonly args: S;
    readonly run: (args: z.output<S>, backend: ToolBackend) => Promise<ToolResult>;
  },
): Tool {
  const { args: schema, run, ...rest } = spec;
  return {
    ...rest,
    inputSchema: schemaOf(schema),
    call: (args, backend) => {
      const parsed = parse(spec.name, schema, args);
      return "error" in parsed ? Promise.resolve(parsed.error) : run(parsed.ok, backend);
    },
  };
}

/**
 * The server's read-only tools (SPEC 14), each answered from the index
 * through the feed's own routes: `list_content` (the feed's filters, a page
 * at a time), `search_content` (`query`, `type`, `limit` up to 50),
 * `get_content` (an `id` or a `link`: metadata and the Markdown),
 * `list_tags`, and `list_changes` (`cursor`, `limit`: SPEC 12). Each
 * answers text blocks and `structuredContent`; bad arguments are tool
 * errors (`isError`) that say what was wrong.
 *
 * @example
 * ```ts
 * import { TOOLS } from "./mcp_tools.ts";
 * TOOLS.map((tool) => tool.name);
 * // ["list_content", "search_content", "get_content", "list_tags", "list_changes"]
 * ```
 */
export const TOOLS: readonly Tool[] = [
  tool({
    name: "list_content",
    title: "List content",
    description:
      "Lists the site's published content, filtered as the JSON feed filters it, a page at a time: " +
      "id, type, category, title, description, authors, tags, dates and link of each item, " +
      "with meta.count and meta.total. Use get_content for an item's text.",
    output: "feed",
    args: listArgs,
    run: (args, backend) => askFeed("list_content", backend, queryOf(args)),
  }),
  tool({
    name: "search_content",
    title: "Search content",
    description: "Finds items whose title, description or body contain every word of the query " +
      "(case and accents ignored), in feed order. Use get_content with an id for the full text.",
    output: "feed",
    args: searchArgs,
    run: ({ query, ...rest }, backend) =>
      askFeed("search_content", backend, queryOf({ search: query, ...rest }), {
        search: "query",
      }),
  }),
  tool({
    name: "get_content",
    title: "Get an item",
    description:
      "One item by its id or its link: first its metadata (JSON: title, description, url, " +
      "dates, tags, parent, children), then its Markdown under a small front matter.",
    output: "item",
    args: getArgs,
    run: async (ref, backend) => {
      const item = backend.find(ref);
      if (!item) {
        return failed(
          `get_content: no published item has ${ref.id !== undefined ? "id" : "link"} ${
            quoteValue(ref.id ?? ref.link, 200)
          }${
            ref.link !== undefined ? ` on ${backend.base}` : ""
          }; list_content and search_content give the ids and links`,
        );
      }
      const forms = await backend.forms(item);
      if ("problem" in forms) return failed(`get_content: ${forms.problem}`);
      const { metadata, markdown } = forms;
      return {
        content: [
          { type: "text", text: JSON.stringify(metadata) },
          { type: "text", text: markdown },
        ],
        structuredContent: { item: metadata, markdown },
      };
    },
  }),
  tool({
    name: "list_tags",
    title: "List tags",
    description:
      "Every tag of the published content with how many items carry it, most used first; " +
      "pass a tag's slug to list_content's tag filter.",
    output: "tags",
    args: tagArgs,
    run: (_args, backend) => {
      const tags = backend.tags();
      return Promise.resolve(structured(JSON.stringify(tags), { tags }));
    },
  }),
  tool({
    name: "list_changes",
    title: "List changes",
    description:
      "What changed since a cursor (0: everything): items that entered or changed, ids that " +
      "left (deleted), and meta.cursor to pass next time; meta.more while more remain.",
    output: "feed",
    args: changeArgs,
    run: ({ cursor, ...rest }, backend) =>
      askFeed("list_changes", backend, queryOf({ since: cursor, ...rest }), {
        since: "cursor",
      }),
  }),
];

/**
 * The server's `instructions` (what `initialize` answers): what the site
 * is, what each tool is for, and that every item is a resource.
 *
 * @example
 * ```ts
 * import { serverInstructions } from "./mcp_tools.ts";
 * serverInstructions({ title: "Lumen Docs", description: undefined, types: ["docs", "blog"] },
 *   "https://docs.example.com");
 * // "Read-only access to the published content of Lumen Docs (https://docs.example.com): …"
 * ```
 */
export function serverInstructions(site: ToolBackend["site"], base: string): string {
  const about = site.description ? ` ${site.description.replace(/\s+/g, " ").trim()}` : "";
  const types = site.types.length ? ` Content types: ${site.types.join(", ")}.` : "";
  return `Read-only access to the published content of ${site.title ?? new URL(base).host} ` +
    `(${base}), as Markdown and JSON.${about}${types} ` +
    "To answer a question from it: search_content finds items by words; get_content gives " +
    "one item's metadata and Markdown by its id or link. list_content browses with the feed's " +
    "filters (type, tag, author, year, month), a page at a time; list_tags gives the tags to " +
    "filter by; list_changes says what changed since a cursor, to keep a copy in sync. " +
    "Every item is also a resource: its URI is its link (…/{type}/{uri}.json), and reading it " +
    "gives its Markdown.";
}
