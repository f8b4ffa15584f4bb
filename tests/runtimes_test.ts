// Starts `main.ts` under Deno, Bun and Node 24 on free ports over the same
// content and config, and checks that every route answers the same bytes
// (the `generated` time aside).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name: string) => `${root}node_modules/.bin/${name}`;
const RUNTIMES: Record<string, string[]> = {
  deno: [bin("deno"), "run", "-A", "main.ts"],
  bun: [bin("bun"), "main.ts"],
  node: [bin("node"), "main.ts"],
};

interface Running {
  process: ChildProcess;
  url: string;
}

function start(command: string[]): Promise<Running> {
  const child = spawn(command[0], command.slice(1), {
    cwd: root,
    env: {
      ...globalThis.process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      BASE_URL: "https://feed.example",
      CONTENT_CONFIG: "content/services.yaml",
      NODE_ENV: "production",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`${command[0]} did not start: ${out}`)), 20000);
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/[^ ]+?)\/? /.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1] });
      }
    });
    child.stderr!.on("data", () => {});
    child.on("exit", (code) => reject(new Error(`${command[0]} exited ${code}: ${out}`)));
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

  it("stops cleanly on SIGTERM", async () => {
    const running = await start(RUNTIMES.node);
    const code = await new Promise((resolve) => {
      running.process.removeAllListeners("exit");
      running.process.on("exit", (c) => resolve(c));
      running.process.kill("SIGTERM");
    });
    assert.equal(code, 0);
  });
});
