// The MCP server's resources (SPEC 14), through the official SDK's client:
// every served item is a resource whose URI is its link, listed a page at a
// time by cursor (each once, in key order, while the index changes between
// pages), read as its Markdown form; one template for the item route.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { RESOURCE_PAGE } from "../src/outputs/mcp_resources.ts";
import { LONG, md, type SiteFiles, type TestSite, withSite } from "./helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const CONFIG = `parameters:
  service.content.config:
    url: https://example.com
    plugins: { docs: ~, blog: ~, api: ~, mcp: ~ }
`;

/** 230 docs pages (three pages of resources), nested ones, a blog post, an unlisted page, a draft. */
function files(): SiteFiles {
  const made: SiteFiles = {
    "docs/guide.md": md({ title: "Guide", description: "How to start" }, `# Guide\n\n${LONG}`),
    "docs/guide/deep.md": md({ title: "Deep", last_update: "2026-03-04" }, `Deeper. ${LONG}`),
    "docs/hidden.md": md({ title: "Hidden", indexable: false }, LONG),
    "docs/plan.md": md({ title: "Plan", draft: true }, LONG),
    "blog/2026-01-02-hello.md": md({ title: "Hello" }, `Zebras say hello. ${LONG}`),
  };
  for (let i = 0; i < 230; i++) {
    made[`docs/p${String(i).padStart(3, "0")}.md`] = md(
      { title: `Page ${i}` },
      `Page ${i}. ${LONG}`,
    );
  }
  return made;
}

async function connect(s: TestSite): Promise<Client> {
  const client = new Client({ name: "content-feed-test", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://localhost:8000/api/mcp"), {
      fetch: (input, init) => s.api.fetch(new Request(input, init)),
    }),
  );
  return client;
}

async function withClient(fn: (client: Client, s: TestSite) => Promise<void>) {
  await withSite(files(), { config: CONFIG }, async (s) => {
    const client = await connect(s);
    try {
      await fn(client, s);
    } finally {
      await client.close();
    }
  });
}

/** Every resource, page by page, and how many pages it took. */
async function listAll(client: Client, between?: (page: number) => Promise<void>) {
  const resources: Json[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    assert.ok(page.resources.length <= RESOURCE_PAGE);
    resources.push(...page.resources);
    cursor = page.nextCursor;
    pages++;
    if (cursor !== undefined) await between?.(pages);
    assert.ok(pages < 100, "the listing ends");
  } while (cursor !== undefined);
  return { resources, pages };
}

/** An item's `type/uri` key from its link. */
const keyOf = (uri: string) => new URL(uri).pathname.slice(1).replace(/\.json$/, "");

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

describe("MCP resources (SPEC 14)", () => {
  it("lists every served item once, its link as the URI, a page at a time by cursor", async () => {
    await withClient(async (client, s) => {
      assert.ok(client.getServerCapabilities()?.resources);
      const { resources, pages } = await listAll(client);
      assert.equal(pages, 3);
      const feed = (await s.json("/api/content.json?limit=10000&include=url")).body.data;
      const hidden = (await s.json("/docs/hidden.json")).body;
      const served = [...feed, hidden];
      // Each served item once (the unlisted one too, as the item route serves it; no draft).
      assert.deepEqual(
        resources.map((r) => r.uri).sort(),
        served.map((item) => item.link).sort(),
      );
      // In `type/uri` order, which a cursor can name.
      const keys = resources.map((r) => keyOf(r.uri));
      assert.deepEqual(keys, [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      const byLink = new Map(served.map((item) => [item.link, item]));
      for (const resource of resources) {
        const item = byLink.get(resource.uri);
        assert.equal(resource.name, item.id);
        assert.equal(resource.title, item.title);
        assert.equal(resource.mimeType, "text/markdown");
        assert.equal(resource.description, item.description || undefined);
        assert.equal(resource.annotations.lastModified, `${item.last_update}T00:00:00Z`);
      }
      assert.ok(!resources.some((r) => r.uri.includes("plan")), "a draft is no resource");
    });
  });

  it("pages by the last key listed: changes between pages never list an item twice", async () => {
    await withClient(async (client, s) => {
      const { resources } = await listAll(client, async (page) => {
        if (page !== 1) return;
        // Before the cursor (listed already or never: it was not there), after it, and a removal.
        await writeFile(`${s.root}/docs/a-first.md`, md({ title: "First" }, LONG));
        await writeFile(`${s.root}/docs/zz-last.md`, md({ title: "Last" }, LONG));
        await rm(`${s.root}/docs/p200.md`);
        await s.api.reload();
      });
      const uris = resources.map((r) => r.uri);
      assert.equal(new Set(uris).size, uris.length, "no resource twice");
      assert.ok(uris.includes("https://example.com/docs/zz-last.json"), "added after the cursor");
      assert.ok(!uris.includes("https://example.com/docs/a-first.json"), "added before the cursor");
      assert.ok(!uris.includes("https://example.com/docs/p200.json"), "removed before its page");
      // A fresh listing sees the index as it is now.
      const again = (await listAll(client)).resources.map((r) => r.uri);
      assert.ok(again.includes("https://example.com/docs/a-first.json"));
      assert.equal(again.length, uris.length + 1);
    });
  });

  it("refuses a cursor it did not give with -32602", async () => {
    await withClient(async (client) => {
      for (const cursor of ["nope", "after.", "after.!!", "after._-8"]) {
        const error = await rpcError(client.listResources({ cursor }));
        assert.equal(error.code, -32602, cursor);
        assert.match(error.message, /cursor is not one this server gave/, cursor);
      }
    });
  });

  it("reads a resource as the item's Markdown form, by its link, .md URL or page URL", async () => {
    await withClient(async (client, s) => {
      const post = (await s.json("/api/content.json?type=blog")).body.data[0];
      const blogKey = keyOf(post.link);
      for (const key of ["docs/guide", "docs/guide/deep", "docs/hidden", blogKey, "docs/p007"]) {
        const markdown = await (await s.request(`/${key}.md`)).text();
        for (
          const uri of [
            `https://example.com/${key}.json`,
            `https://example.com/${key}.md`,
            `https://example.com/${key}`,
          ]
        ) {
          const read = await client.readResource({ uri });
          assert.deepEqual(
            read.contents,
            [{ uri, mimeType: "text/markdown", text: markdown }],
            uri,
          );
        }
      }
    });
  });

  it("answers a URI that names no served item with -32002, and bad params with -32602", async () => {
    await withClient(async (client, s) => {
      for (
        const uri of [
          "https://example.com/docs/plan.json",
          "https://example.com/docs/nope.json",
          "https://evil.example/docs/guide.json",
          "http://example.com/docs/guide.json",
          "test://template/123/data",
          "not a uri",
        ]
      ) {
        const error = await rpcError(client.readResource({ uri }));
        assert.equal(error.code, -32002, uri);
        assert.match(error.message, /Resource not found: .* names no published item/, uri);
      }
      for (const params of [{}, { uri: 5 }, { uri: null }]) {
        const response = await s.request("/api/mcp", {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "resources/read", params }),
        });
        assert.equal(response.status, 200, JSON.stringify(params));
        const { error } = await response.json();
        assert.equal(error.code, -32602, JSON.stringify(params));
        assert.match(error.message, /^Invalid resources\/read request: uri: .*expected string/);
      }
    });
  });

  it("gives one template, the item route's, that expands to readable URIs", async () => {
    await withClient(async (client, s) => {
      const { resourceTemplates } = await client.listResourceTemplates();
      assert.equal(resourceTemplates.length, 1);
      const [template] = resourceTemplates;
      assert.equal(template.uriTemplate, "https://example.com/{type}/{+uri}.json");
      assert.equal(template.mimeType, "text/markdown");
      assert.ok(template.name && template.description);
      // RFC 6570: {+uri} keeps a nested uri's slashes.
      const uri = template.uriTemplate.replace("{type}", "docs").replace("{+uri}", "guide/deep");
      const read = await client.readResource({ uri });
      assert.equal(
        (read.contents[0] as Json).text,
        await (await s.request("/docs/guide/deep.md")).text(),
      );
    });
  });

  it("holds a batch of reads within the response's byte budget", async () => {
    const big = { ...files(), "docs/large.md": md({ title: "Large" }, "word ".repeat(30_000)) };
    await withSite(big, { config: CONFIG, mcpAnswerBytes: 400_000 }, async (s) => {
      const reads = Array.from({ length: 5 }, (_, id) => ({
        jsonrpc: "2.0",
        id,
        method: "resources/read",
        params: { uri: "https://example.com/docs/large.json" },
      }));
      const response = await s.request("/api/mcp", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(reads),
      });
      assert.equal(response.status, 200);
      const bytes = (await response.clone().arrayBuffer()).byteLength;
      assert.ok(bytes < 400_000 + 5 * 1024, `${bytes} bytes`);
      const answers: Json[] = await response.json();
      // 150 KB each: two fit in 400 KB, the third does not.
      assert.deepEqual(answers.map((answer) => answer.result !== undefined), [
        true,
        true,
        false,
        false,
        false,
      ]);
      for (const answer of answers.slice(2)) {
        assert.equal(answer.error.code, -32000);
        assert.match(answer.error.message, /does not fit: .*read the resource alone.*\.md URL/);
      }
    });
  });
});
