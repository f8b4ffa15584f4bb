// POST /api/mcp (SPEC 14): the official MCP SDK's client, over Streamable
// HTTP through fetch(Request), calls each tool, and every answer is checked
// against the feed and the item forms of the same index, and its
// structuredContent against the tool's outputSchema; bad arguments are tool
// errors that say what was wrong, an unknown tool a JSON-RPC error, never a
// 5xx. Resources: mcp_resources_test.ts; Origin and Host: mcp_origin_test.ts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client";
// The SDK's export map gives these paths no types Deno finds; the comments point at them.
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { LONG, md, site, type SiteFiles, type TestSite, withSite } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~, mcp: ~ }
`;

const FILES: SiteFiles = {
  "docs/intro.md": md({ title: "Intro", tags: ["Deno", "Start"] }, `Welcome aboard. ${LONG}`),
  "docs/guide.md": md({ title: "Guide", tags: ["Deno"] }, `# Guide\n\nSteps. ${LONG}`),
  "docs/guide/deep.md": md({ title: "Deep", tags: ["Node"] }, `Deeper. ${LONG}`),
  "docs/hidden.md": md({ title: "Hidden", indexable: false }, LONG),
  "docs/plan.md": md({ title: "Plan", draft: true, tags: ["Secret"] }, `Zanzibarian. ${LONG}`),
  "blog/2026-01-02-hello.md": md({ title: "Hello", tags: ["News"] }, `Zebras say hello. ${LONG}`),
  "blog/2026-02-03-again.md": md({ title: "Again", tags: ["News", "Deno"] }, LONG),
};

/** An SDK client connected to a site's handler (its `fetch`), as a remote client would be. */
async function connect(s: TestSite, path = "/api/mcp"): Promise<Client> {
  const client = new Client({ name: "content-feed-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://localhost:8000${path}`), {
      fetch: (input, init) => s.api.fetch(new Request(input, init)),
    }),
  );
  return client;
}

async function withClient(fn: (client: Client, s: TestSite) => Promise<void>, files = FILES) {
  await withSite(files, { config: CONFIG }, async (s) => {
    const client = await connect(s);
    try {
      await fn(client, s);
    } finally {
      await client.close();
    }
  });
}

/** The one text block of a tool result, parsed as JSON. */
function textOf(result: Json, block = 0): string {
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.equal(result.content[block].type, "text");
  return result.content[block].text;
}

/** The JSON-RPC error a call ends in. */
async function rpcError(call: Promise<unknown>): Promise<McpError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof McpError, String(error));
    return error;
  }
  assert.fail("the call succeeded");
}

/** A raw POST to /api/mcp, as a client that is not the SDK would send it. */
function post(s: TestSite, body: string, headers: Record<string, string> = {}) {
  return s.request("/api/mcp", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

describe("POST /api/mcp: the MCP server (SPEC 14)", () => {
  it("initializes and lists the five read-only tools with their argument schemas", async () => {
    await withClient(async (client) => {
      assert.equal(client.getServerVersion()?.name, "content-feed");
      assert.ok(client.getServerCapabilities()?.tools);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name), [
        "list_content",
        "search_content",
        "get_content",
        "list_tags",
        "list_changes",
      ]);
      for (const tool of tools) {
        assert.equal(tool.inputSchema.type, "object", tool.name);
        assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
        assert.ok(tool.description && tool.description.length > 40, tool.name);
      }
      const search = tools.find((tool) => tool.name === "search_content")!;
      assert.deepEqual(search.inputSchema.required, ["query"]);
      assert.equal((search.inputSchema.properties as Json).limit.maximum, 50);
    });
  });

  it("gives every tool an outputSchema that its structuredContent fits, beside the same text", async () => {
    const validator = new AjvJsonSchemaValidator();
    await withClient(async (client, s) => {
      // Listing the tools makes the SDK's client check every structuredContent against its schema.
      const { tools } = await client.listTools();
      const schemas = new Map(tools.map((tool) => [tool.name, tool.outputSchema]));
      for (const tool of tools) {
        assert.equal(tool.outputSchema?.type, "object", tool.name);
        assert.equal((tool.outputSchema as Json).$schema, undefined, tool.name);
      }
      const calls: [string, Record<string, unknown>][] = [
        ["list_content", { limit: 3 }],
        ["list_content", { type: "blog" }],
        ["search_content", { query: "zebras" }],
        ["get_content", { id: "docs_doc_guide" }],
        ["get_content", { link: "https://example.com/docs/hidden.json" }],
        ["list_tags", {}],
        ["list_changes", {}],
        ["list_changes", { cursor: "0", limit: 2 }],
      ];
      for (const [name, args] of calls) {
        const what = `${name} ${JSON.stringify(args)}`;
        const result: Json = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, undefined, what);
        const structured = result.structuredContent;
        const check = validator.getValidator(schemas.get(name) as Json)(structured);
        assert.ok(check.valid, `${what}: ${check.errorMessage}`);
        if (name === "get_content") {
          assert.deepEqual(structured.item, JSON.parse(textOf(result, 0)), what);
          assert.equal(structured.markdown, textOf(result, 1), what);
        } else if (name === "list_tags") {
          assert.deepEqual(structured, { tags: JSON.parse(textOf(result)) }, what);
        } else {
          assert.deepEqual(structured, JSON.parse(textOf(result)), what);
        }
      }
      // The schemas hold the answers to what the routes promise: a wrong one does not fit.
      const feed = (await s.json("/api/content.json?limit=2")).body;
      const fits = validator.getValidator(schemas.get("list_content") as Json);
      assert.ok(fits(feed).valid);
      assert.equal(fits({ ...feed, extra: 1 }).valid, false);
      assert.equal(fits({ ...feed, data: [{ title: "no id" }] }).valid, false);
      assert.equal(fits({ meta: feed.meta }).valid, false);
      const item = validator.getValidator(schemas.get("get_content") as Json);
      assert.equal(item({ item: { id: "x" }, markdown: "" }).valid, false);
    });
  });

  it("says in its instructions what the site is and what each tool is for", async () => {
    const config = CONFIG.replace(
      "url:",
      "title: Lumen Docs\n    description: Docs for Lumen.\n    url:",
    );
    await withSite(FILES, { config }, async (s) => {
      const client = await connect(s);
      try {
        const instructions = client.getInstructions() ?? "";
        assert.match(
          instructions,
          /^Read-only access to the published content of Lumen Docs \(https:\/\/example\.com\)/,
        );
        assert.match(instructions, /Docs for Lumen\./);
        assert.match(instructions, /Content types: docs, blog\./);
        for (
          const tool of [
            "search_content",
            "get_content",
            "list_content",
            "list_tags",
            "list_changes",
          ]
        ) {
          assert.match(instructions, new RegExp(`${tool} [a-z]`), tool);
        }
        assert.match(instructions, /resource: its URI is its link/);
      } finally {
        await client.close();
      }
    });
  });

  it("get_content finds no item by a link on another host", async () => {
    await withClient(async (client) => {
      // The same paths on the site's own origin are found (the test above), on any other not.
      for (
        const link of [
          "https://evil.example/docs/intro.json",
          "https://evil.example/docs/intro",
          "//evil.example/docs/intro.md",
          "http://example.com/docs/intro.json",
          "https://example.com:8443/docs/intro.json",
          "https://sub.example.com/docs/intro",
        ]
      ) {
        const result: Json = await client.callTool({ name: "get_content", arguments: { link } });
        assert.equal(result.isError, true, link);
        assert.match(
          result.content[0].text,
          /no published item has link .* on https:\/\/example\.com/,
          link,
        );
      }
      const own: Json = await client.callTool({
        name: "get_content",
        arguments: { link: "https://example.com/docs/intro" },
      });
      assert.equal(own.isError, undefined);
    });
  });

  it("list_content and search_content answer what the feed answers for the same filters", async () => {
    await withClient(async (client, s) => {
      const cases: [Record<string, unknown>, string][] = [
        [{}, "limit=20"],
        [{ type: "docs", limit: 2, page: 2 }, "type=docs&limit=2&page=2"],
        [{ tag: "deno", sort: "title" }, "tag=deno&sort=title&limit=20"],
        [{ search: "zebras" }, "search=zebras&limit=20"],
        [{ year: "2026", month: 2 }, "year=2026&month=2&limit=20"],
      ];
      for (const [args, query] of cases) {
        const result = await client.callTool({ name: "list_content", arguments: args });
        const feed = (await s.json(`/api/content.json?${query}`)).body;
        assert.deepEqual(JSON.parse(textOf(result)), feed, query);
      }
      for (
        const [args, query] of [
          [{ query: "welcome" }, "search=welcome&limit=10"],
          [{ query: "hello", type: "blog", limit: 1 }, "search=hello&type=blog&limit=1"],
        ] as const
      ) {
        const result = await client.callTool({ name: "search_content", arguments: args });
        const feed = (await s.json(`/api/content.json?${query}`)).body;
        assert.deepEqual(JSON.parse(textOf(result)), feed, query);
        assert.ok(feed.data.length > 0, query);
      }
    });
  });

  it("get_content gives an item's metadata and Markdown by id or by link; drafts by neither", async () => {
    await withClient(async (client, s) => {
      const feed = (await s.json("/api/content.json")).body.data;
      for (
        const item of [...feed, {
          id: "docs_doc_hidden",
          link: "https://example.com/docs/hidden.json",
        }]
      ) {
        const path = new URL(item.link).pathname;
        const { body: json } = await s.json(path);
        const markdown = await (await s.request(path.replace(/\.json$/, ".md"))).text();
        const { body: _, ...metadata } = json;
        const page = `https://example.com/${json.type}/${json.uri}`;
        for (
          const ref of [{ id: item.id }, { link: item.link }, { link: page }, {
            link: `${page}.md`,
          }]
        ) {
          const result = await client.callTool({ name: "get_content", arguments: ref });
          assert.deepEqual(JSON.parse(textOf(result, 0)), metadata, JSON.stringify(ref));
          assert.equal(textOf(result, 1), markdown, JSON.stringify(ref));
        }
      }
      for (const ref of [{ id: "docs_doc_plan" }, { link: "/docs/plan" }, { id: "nope" }]) {
        const result: Json = await client.callTool({ name: "get_content", arguments: ref });
        assert.equal(result.isError, true, JSON.stringify(ref));
        assert.match(result.content[0].text, /no published item has/);
      }
    });
  });

  it("list_tags counts the feed's tags; list_changes answers what since answers", async () => {
    await withClient(async (client, s) => {
      const feed = (await s.json("/api/content.json")).body.data;
      const counts = new Map<string, number>();
      for (const item of feed) {
        for (const tag of item.tags) counts.set(tag.slug, (counts.get(tag.slug) ?? 0) + 1);
      }
      const tags = JSON.parse(textOf(await client.callTool({ name: "list_tags", arguments: {} })));
      assert.deepEqual(
        new Map(tags.map((tag: Json) => [tag.slug, tag.count])),
        counts,
      );
      assert.ok(!tags.some((tag: Json) => tag.slug === "secret"), "a draft's tag is not listed");
      assert.deepEqual(
        tags.map((tag: Json) => tag.count),
        [...counts.values()].sort((a, b) => b - a),
      );

      const all = JSON.parse(
        textOf(await client.callTool({ name: "list_changes", arguments: {} })),
      );
      assert.deepEqual(all, (await s.json("/api/content.json?since=0&limit=100")).body);
      const cursor = all.meta.cursor;
      const paged = JSON.parse(
        textOf(
          await client.callTool({
            name: "list_changes",
            arguments: { cursor: "0", limit: 2, type: "docs" },
          }),
        ),
      );
      assert.deepEqual(paged, (await s.json("/api/content.json?since=0&limit=2&type=docs")).body);
      const none = JSON.parse(
        textOf(await client.callTool({ name: "list_changes", arguments: { cursor } })),
      );
      assert.equal(none.data.length, 0);
      const gone: Json = await client.callTool({
        name: "list_changes",
        arguments: { cursor: "zzzz.5" },
      });
      assert.equal(gone.isError, true);
      assert.match(gone.content[0].text, /since=0/);
    });
  });

  it("answers an unknown tool with JSON-RPC -32602 naming it", async () => {
    await withClient(async (client) => {
      const error = await rpcError(client.callTool({ name: "nope", arguments: {} }));
      assert.equal(error.code, -32602);
      // The server's message, once: the client's McpError adds "MCP error -32602: ".
      assert.doesNotMatch(error.message, /MCP error.*MCP error/);
      assert.match(error.message, /unknown tool "nope"; tools: list_content, search_content/);
    });
  });

  it("answers bad arguments with a tool error (isError) that says what was wrong", async () => {
    await withClient(async (client) => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        // Missing, of the wrong type, out of range.
        ["search_content", {}, /^search_content: query is required$/],
        ["search_content", { query: 5 }, /query must be a string, not the number 5/],
        [
          "search_content",
          { query: "x", limit: 51 },
          /limit must be at most 50, not the number 51/,
        ],
        [
          "search_content",
          { query: "x".repeat(201) },
          /query is longer than 200 characters \(201\)/,
        ],
        ["list_content", { search: "x".repeat(201) }, /search is longer than 200 characters/],
        ["list_content", { limit: "ten" }, /limit must be a number, not the string "ten"/],
        ["list_content", { limit: 0 }, /limit must be at least 1, not the number 0/],
        ["list_content", { page: 1.5 }, /page must be a whole number, not the number 1\.5/],
        [
          "list_content",
          { month: "2", year: "2026" },
          /month must be a number, not the string "2"/,
        ],
        ["list_content", { type: { a: 1 } }, /type must be a string, not an object/],
        ["list_content", { tag: null }, /tag must be a string, not null/],
        ["list_content", { type: "" }, /type must not be empty/],
        [
          "list_content",
          { sort: "size" },
          /sort must be one of feed, date, -date, .*, not the string "size"/,
        ],
        // Every problem at once, so one correction fixes them all.
        [
          "list_content",
          { limit: "ten", page: 0 },
          /limit must be a number.*; page must be at least 1/,
        ],
        // Unknown names, with what the tool takes.
        [
          "list_content",
          { colour: "red" },
          /unknown argument "colour"; list_content takes type, category/,
        ],
        ["list_tags", { x: 1, y: 2 }, /unknown arguments "x", "y"; list_tags takes no arguments/],
        // Values the feed refuses, named as the tool names them.
        ["list_content", { type: "nope" }, /^list_content: type must be one of docs, blog/],
        ["list_content", { month: 2 }, /month needs year/],
        ["list_changes", { cursor: "not a cursor" }, /^list_changes: cursor must be 0 or a cursor/],
        // get_content says what to give.
        [
          "get_content",
          {},
          /^get_content: give an id \(.*"id": "docs_doc_intro".*\) or a link \(an item's page URL, or its \.json or \.md URL/,
        ],
        ["get_content", { id: "a", link: "b" }, /give an id or a link, not both/],
        ["get_content", { id: 7 }, /id must be a string, not the number 7/],
      ];
      for (const [name, args, message] of cases) {
        const what = `${name} ${JSON.stringify(args).slice(0, 80)}`;
        const result: Json = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, true, what);
        assert.equal(result.structuredContent, undefined, what);
        assert.equal(result.content.length, 1, what);
        assert.match(result.content[0].text, message, what);
      }
    });
  });

  it("answers odd argument values over raw JSON-RPC without a 5xx", async () => {
    await withSite(FILES, { config: CONFIG }, async (s) => {
      const odd: unknown[] = [
        { limit: 1e308 },
        { limit: -0 },
        { page: Number.MAX_SAFE_INTEGER + 2 },
        { search: "\u0000\ud800" },
        { type: ["docs"] },
        { year: "2026", month: 13 },
        { updated_since: "yesterday" },
        { author: "a".repeat(200) },
        { [`k${"x".repeat(500)}`]: 1 },
        Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`a${i}`, i])),
      ];
      for (const args of odd) {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "list_content", arguments: args },
        });
        const response = await post(s, body);
        const what = body.slice(0, 120);
        assert.equal(response.status, 200, what);
        const answer = await response.json();
        assert.ok(answer.result, what);
        if (answer.result.isError) {
          assert.match(answer.result.content[0].text, /^list_content: /, what);
          assert.ok(answer.result.content[0].text.length < 2000, what);
        }
      }
      // `arguments` that is not an object breaks the protocol's own schema: a -32602 from the SDK.
      const notObject = await post(
        s,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 2,
          method: "tools/call",
          params: { name: "list_content", arguments: "limit=5" },
        }),
      );
      assert.equal(notObject.status, 200);
      assert.equal((await notObject.json()).error.code, -32602);
    });
  });

  it("answers a malformed body, a batch too large and a body too large without a 5xx", async () => {
    await withSite(FILES, { config: CONFIG }, async (s) => {
      const parse = await post(s, "{nope");
      assert.equal(parse.status, 400);
      assert.equal((await parse.json()).error.code, -32700);
      // Valid JSON that is no JSON-RPC message is an Invalid Request, not a parse error.
      for (const message of [{ hello: "world" }, { jsonrpc: "1.0", id: 1, method: "ping" }, [1]]) {
        const notRpc = await post(s, JSON.stringify(message));
        assert.equal(notRpc.status, 400, JSON.stringify(message));
        const { error, id } = await notRpc.json();
        assert.equal(error.code, -32600, JSON.stringify(message));
        assert.match(error.message, /^Invalid Request/);
        assert.equal(id, null);
      }
      const batch = JSON.stringify(
        Array.from({ length: 101 }, (_, id) => ({ jsonrpc: "2.0", id, method: "ping" })),
      );
      const tooMany = await post(s, batch);
      assert.equal(tooMany.status, 400);
      assert.equal((await tooMany.json()).error.code, -32600);
      const big = await post(
        s,
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "ping",
          params: { x: "x".repeat(70_000) },
        }),
      );
      assert.equal(big.status, 413);
      assert.ok((await big.json()).error);
      const wrongType = await post(s, "{}", { "Content-Type": "text/plain" });
      assert.equal(wrongType.status, 415);
      // A request without initialize first is answered: the server is stateless.
      const list = await post(s, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }));
      assert.equal(list.status, 200);
      assert.equal(list.headers.get("access-control-allow-origin"), "*");
      assert.equal(list.headers.get("cache-control"), "no-store");
      const answer = await list.json();
      assert.equal(answer.id, 7);
      assert.equal(answer.result.tools.length, 5);
    });
  });

  it("compresses a large answer for a client that accepts it", async () => {
    await withSite(FILES, { config: CONFIG }, async (s) => {
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "list_content", arguments: { limit: 100 } },
      });
      const plain = await post(s, body);
      const gzipped = await post(s, body, { "Accept-Encoding": "gzip" });
      assert.equal(gzipped.headers.get("content-encoding"), "gzip");
      assert.equal(gzipped.headers.get("vary"), "Accept-Encoding");
      const size = Number(gzipped.headers.get("content-length"));
      assert.ok(size < Number(plain.headers.get("content-length")));
      // The runtime's fetch would decompress; the handler's Response is the raw bytes.
      const raw = new Uint8Array(await gzipped.arrayBuffer());
      const unzipped = await new Response(
        new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip")),
      ).text();
      assert.equal(unzipped, await plain.text());
    });
  });

  it("holds a batch's answer within the byte budget: the calls that fit, then tool errors", async () => {
    // An item of 150 KB, whose answer is about 300 KB (its Markdown as text and again in
    // structuredContent): three of its answers fit in a 1 MB budget, the fourth does not.
    const files = { ...FILES, "docs/large.md": md({ title: "Large" }, "word ".repeat(30_000)) };
    await withSite(files, { config: CONFIG, mcpAnswerBytes: 1024 * 1024 }, async (s) => {
      const call = (id: number, name: string, args: Record<string, unknown>) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      });
      const gets = Array.from(
        { length: 20 },
        (_, id) => call(id, "get_content", { id: "docs_doc_large" }),
      );
      const response = await post(s, JSON.stringify(gets));
      assert.equal(response.status, 200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      // The budget, and the envelope of twenty messages.
      assert.ok(bytes.length <= 1024 * 1024 + 20 * 1024, `${bytes.length} bytes`);
      const answers: Json[] = JSON.parse(new TextDecoder().decode(bytes));
      assert.deepEqual(answers.map((answer) => answer.id), gets.map((get) => get.id));
      const fitted = answers.filter((answer) => !answer.result.isError);
      assert.equal(fitted.length, 3);
      // The calls that fit are the first ones, in the order they came.
      assert.deepEqual(fitted.map((answer) => answer.id), [0, 1, 2]);
      for (const answer of answers.slice(3)) {
        assert.equal(answer.result.isError, true);
        assert.match(answer.result.content[0].text, /at most 1\.0 MB.*call get_content alone/);
      }
      // A call that does not fit is refused, and a later one that fits in what is left is answered.
      const mixed = await post(
        s,
        JSON.stringify([
          call(1, "list_tags", {}),
          call(2, "get_content", { id: "docs_doc_large" }),
          call(3, "get_content", { id: "docs_doc_large" }),
          call(4, "get_content", { id: "docs_doc_large" }),
          call(5, "get_content", { id: "docs_doc_large" }),
          call(6, "list_content", { limit: 100 }),
        ]),
      );
      const results = (await mixed.json() as Json[]).map((answer) => answer.result);
      assert.deepEqual(results.map((result) => result.isError ?? false), [
        false,
        false,
        false,
        false,
        true,
        false,
      ]);
      assert.equal(JSON.parse(results[5].content[0].text).data.length, 6);
    });
  });

  it("refuses one call whose answer alone passes the budget, saying how to page", async () => {
    await withSite(FILES, { config: CONFIG, mcpAnswerBytes: 2000 }, async (s) => {
      const client = await connect(s);
      try {
        const changes = await client.callTool({
          name: "list_changes",
          arguments: { cursor: "0", limit: 1000 },
        }) as Json;
        assert.equal(changes.isError, true);
        assert.match(changes.content[0].text, /smaller limit.*meta\.cursor while meta\.more/);
        // A page that fits is answered.
        const one = await client.callTool({
          name: "list_changes",
          arguments: { cursor: "0", limit: 1 },
        });
        assert.equal(JSON.parse(textOf(one)).data.length, 1);
      } finally {
        await client.close();
      }
    });
  });

  it("is 405 for every other method, with Allow: POST; a CORS preflight allows POST", async () => {
    await withSite(FILES, { config: CONFIG }, async (s) => {
      for (const method of ["GET", "HEAD", "PUT", "DELETE", "PATCH"]) {
        const response = await s.request("/api/mcp", { method });
        assert.equal(response.status, 405, method);
        assert.equal(response.headers.get("allow"), "POST", method);
      }
      const preflight = await s.request("/api/mcp", {
        method: "OPTIONS",
        headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get("access-control-allow-methods"), "POST, OPTIONS");
    });
  });

  it("follows the index: a tool answers from the index after an edit", async () => {
    const s = await site(FILES, { config: CONFIG });
    try {
      const client = await connect(s);
      const { writeFile } = await import("node:fs/promises");
      await writeFile(`${s.root}/docs/intro.md`, md({ title: "Intro, new" }, `Quokkas. ${LONG}`));
      await s.api.reload();
      const found = JSON.parse(
        textOf(await client.callTool({ name: "search_content", arguments: { query: "quokkas" } })),
      );
      assert.deepEqual(found.data.map((item: Json) => item.title), ["Intro, new"]);
      await client.close();
    } finally {
      await s.close();
    }
  });
});
