// Starts `main.ts` under Deno, Bun and Node 24 on free ports over the same
// content and config, and checks that every route answers the same bytes
// (the `generated` time aside).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { ROOT as root, type Running, RUNTIMES as COMMANDS, startServer } from "./server_helpers.ts";

const RUNTIMES = Object.fromEntries(
  Object.entries(COMMANDS).map(([name, command]) => [name, command("main.ts")]),
);

function start(command: string[]): Promise<Running> {
  return startServer(command, {
    BASE_URL: "https://feed.example",
    CONTENT_CONFIG: "content/services.yaml",
  });
}

async function body(url: string): Promise<string> {
  const response = await fetch(url);
  const text = await response.text();
  return `${response.status} ${text.replace(/"generated":"[^"]*"/, '"generated":"…"')}`;
}

describe("the same source on Deno, Bun and Node 24", () => {
  const servers: Record<string, Running> = {};
  before(async () => {
    for (const [name, command] of Object.entries(RUNTIMES)) servers[name] = await start(command);
  });
  after(() => {
    for (const server of Object.values(servers)) server.process.kill("SIGTERM");
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
      ...feed.data.map((item: { link: string }) => new URL(item.link).pathname),
    ];
    for (const path of paths) {
      const [deno, bun, node] = await Promise.all(
        ["deno", "bun", "node"].map((name) => body(servers[name].url + path)),
      );
      assert.equal(bun, deno, `bun and deno differ on ${path}`);
      assert.equal(node, deno, `node and deno differ on ${path}`);
    }
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
