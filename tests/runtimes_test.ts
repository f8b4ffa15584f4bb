// Starts `main.ts` under Deno, Bun and Node 24 on free ports over the same
// content and config, and checks that every route answers the same bytes
// (the `generated` time aside).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createContentApi } from "../mod.ts";
import { ROOT as root, type Running, RUNTIMES as COMMANDS, startServer } from "./server_helpers.ts";

const RUNTIMES = Object.fromEntries(
  Object.entries(COMMANDS).map(([name, command]) => [name, command("main.ts")]),
);

function start(command: string[], config = "content/services.yaml"): Promise<Running> {
  return startServer(command, {
    BASE_URL: "https://feed.example",
    CONTENT_CONFIG: config,
  });
}

/**
 * The sample content with one journal, in a copy for each runtime: each
 * server writes its own journal file (one server per journal), and the
 * three begin with the same one, so they give the same cursors.
 */
async function contentCopies(
  names: string[],
): Promise<{ base: string; configs: Record<string, string> }> {
  const base = await mkdtemp(join(tmpdir(), "content-feed-runtimes-"));
  await cp(join(root, "content"), join(base, "journal"), {
    recursive: true,
    preserveTimestamps: true,
    filter: (path) => !path.includes(".content-feed"),
  });
  const api = await createContentApi({
    config: join(base, "journal", "services.yaml"),
    logger: { info() {}, warn() {}, error() {} },
  });
  api.close();
  const configs: Record<string, string> = {};
  for (const name of names) {
    await cp(join(base, "journal"), join(base, name), {
      recursive: true,
      preserveTimestamps: true,
    });
    configs[name] = join(base, name, "services.yaml");
  }
  return { base, configs };
}

async function body(url: string): Promise<string> {
  const response = await fetch(url);
  const text = await response.text();
  return `${response.status} ${text.replace(/"generated":"[^"]*"/, '"generated":"…"')}`;
}

describe("the same source on Deno, Bun and Node 24", () => {
  const servers: Record<string, Running> = {};
  let copies = { base: "", configs: {} as Record<string, string> };
  before(async () => {
    copies = await contentCopies(Object.keys(RUNTIMES));
    for (const [name, command] of Object.entries(RUNTIMES)) {
      servers[name] = await start(command, copies.configs[name]);
    }
  });
  after(async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    if (copies.base) await rm(copies.base, { recursive: true, force: true });
  });

  it("answers every route with identical bytes", async () => {
    const feed = JSON.parse(await (await fetch(`${servers.node.url}/api/content.json`)).text());
    assert.ok(feed.data.length > 20);
    const paths = [
      "/api/content.json",
      "/api/content.json?type=docs",
      "/api/content.json?tag=deno&limit=3&page=2",
      "/api/content.json?search=gu%C3%ADa&year=2025",
      "/api/content.json?limit=abc",
      "/api/openapi.json",
      "/sitemap.xml",
      "/docs/nope.json",
      "/llms.txt",
      "/llms-full.txt",
      "/feed.json",
      "/feed.json?type=blog&search=lumen",
      ...feed.data.map((item: { link: string }) => new URL(item.link).pathname),
      ...feed.data.map((item: { link: string }) =>
        new URL(item.link).pathname.replace(/\.json$/, ".md")
      ),
    ];
    for (const path of paths) {
      const [deno, bun, node] = await Promise.all(
        ["deno", "bun", "node"].map((name) => body(servers[name].url + path)),
      );
      assert.equal(bun, deno, `bun and deno differ on ${path}`);
      assert.equal(node, deno, `node and deno differ on ${path}`);
    }
  });

  it("serves MCP to the official SDK client, the same tools and answers on each runtime", async () => {
    const answers: Record<string, string[]> = {};
    for (const name of Object.keys(RUNTIMES)) {
      const client = new Client({ name: "runtimes-test", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${servers[name].url}/api/mcp`)),
      );
      try {
        const { tools } = await client.listTools();
        const calls: [string, Record<string, unknown>][] = [
          ["list_content", { type: "docs", limit: 3 }],
          ["search_content", { query: "theme", limit: 5 }],
          ["get_content", { id: "docs_doc_guide_getting-started" }],
          ["list_tags", {}],
          ["list_changes", { cursor: "0", limit: 2 }],
        ];
        assert.deepEqual(tools.map((tool) => tool.name), calls.map(([tool]) => tool), name);
        const got: string[] = [];
        for (const [tool, args] of calls) {
          const result = await client.callTool({ name: tool, arguments: args });
          assert.equal(result.isError, undefined, `${name} ${tool}: ${JSON.stringify(result)}`);
          // The journal's cursor and the index's time are each server's own.
          got.push(
            JSON.stringify(result.content)
              .replace(/\\"generated\\":\\"[^"\\]*\\"/g, "")
              .replace(/\\"cursor\\":\\"[^"\\]*\\"/g, ""),
          );
        }
        const listed = JSON.parse(
          (await client.callTool({
            name: "list_content",
            arguments: { type: "docs", limit: 3 },
          }) as { content: { text: string }[] }).content[0].text,
        );
        const feed = await (await fetch(`${servers[name].url}/api/content.json?type=docs&limit=3`))
          .json();
        assert.deepEqual(listed, feed, `${name}: list_content is the feed`);
        answers[name] = got;
      } finally {
        await client.close();
      }
    }
    assert.deepEqual(answers.bun, answers.deno, "bun and deno differ");
    assert.deepEqual(answers.node, answers.deno, "node and deno differ");
  });

  for (const [name, command] of Object.entries(RUNTIMES)) {
    it(`stops cleanly with exit code 0 on SIGTERM and SIGINT under ${name}`, () => {
      // A shell reports the exit status: Deno's child_process reports a signal
      // for a child that was signalled, even when the child exited 0 itself.
      for (const signal of ["TERM", "INT"]) {
        const script = `rm -f "$OUT"; ${
          command.map((a) => `'${a}'`).join(" ")
        } > "$OUT" 2>/dev/null &
pid=$!
for i in $(seq 100); do grep -q listening "$OUT" && break; sleep 0.1; done
kill -${signal} $pid; wait $pid; echo "exit=$?"`;
        const out = execFileSync("sh", ["-c", script], {
          cwd: root,
          encoding: "utf8",
          env: {
            ...globalThis.process.env,
            PORT: "0",
            HOST: "127.0.0.1",
            OUT: `${tmpdir()}/cf-${name}-${signal}.log`,
          },
        });
        assert.equal(out.trim(), "exit=0", `${name} on SIG${signal}`);
      }
    });
  }
});
