// `toNodeListener(api)` (SPEC 15): the service under node:http, Express
// (mounted under a path: routes and links under it) and Fastify (a route that
// hijacks the reply, with a prefix). Each answers as `api.fetch` does: large
// bodies streamed at the client's pace and byte for byte, HEAD, 304, problem
// documents, request bodies for POST /api/mcp (streamed, or read by a body
// parser first), and a client that goes away mid-response stops the writing.
// Node 24 only: the other runtimes serve through srvx.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { gunzipSync } from "node:zlib";
import { type ContentApi, toNodeListener } from "../mod.ts";
import { configFor, LONG, md, site, type TestSite } from "./helpers.ts";
import { OWN_RUNTIME } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const SKIP = OWN_RUNTIME !== "node"
  ? "toNodeListener bridges node:http: tested under Node's runner (npm run test:node)"
  : false;

/** Items of the site: about 16 MB of bodies, more than a connection's buffers hold. */
const ITEMS = 160;

const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const MCP_HEADERS = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
};

/** A site large enough that its `include=body` feed outlasts the socket buffers. */
async function largeSite(config: string): Promise<TestSite> {
  const files: Record<string, string> = {};
  const body = `${LONG}\n\n`.repeat(800);
  for (let i = 0; i < ITEMS; i++) {
    files[`docs/page-${String(i).padStart(3, "0")}.md`] = md({ title: `Page ${i}` }, body);
  }
  return await site(files, { config });
}

/** Listens on a free loopback port; resolves with the origin. */
function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    })
  );
}

function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** What `api.fetch` answers for a path, as bytes and headers: what every host must pass on. */
async function direct(api: ContentApi, url: string, init?: RequestInit) {
  const response = await api.fetch(new Request(url, init));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/**
 * Asks for a large answer, reads its first bytes and goes away: resolves
 * with the bytes the server wrote to that connection by the time it closed.
 */
function abandon(origin: string, path: string, written: Promise<number>): Promise<number> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    });
    socket.once("data", () => {
      socket.destroy();
      written.then(resolve, reject);
    });
    socket.on("error", reject);
  });
}

describe("toNodeListener under node:http", { skip: SKIP, timeout: 300_000 }, () => {
  let s: TestSite;
  let server: http.Server;
  let origin = "";
  /** Bytes written to each finished connection of the last request, and whether its listener settled. */
  let lastClosed: { written: Promise<number>; settled: Promise<void> } | undefined;
  before(async () => {
    s = await largeSite(configFor(["docs", "api", "mcp"]));
    const listener = toNodeListener(s.api);
    server = http.createServer((req, res) => {
      let wrote: (n: number) => void = () => {};
      const written = new Promise<number>((resolve) => wrote = resolve);
      res.on("close", () => wrote(req.socket.bytesWritten));
      lastClosed = { written, settled: listener(req, res) };
    });
    origin = await listen(server);
  });
  after(async () => {
    await close(server);
    await s.close();
  });

  it("streams a large body byte for byte, with the service's headers", async () => {
    const path = "/api/content.json?include=body";
    const { response: expected, bytes } = await direct(s.api, `${origin}${path}`);
    assert.ok(bytes.length > 15_000_000, `${bytes.length} bytes`);
    // (fetch asks for gzip by default, and would unpack it.)
    const response = await fetch(`${origin}${path}`, {
      headers: { "Accept-Encoding": "identity" },
    });
    assert.equal(response.status, 200);
    const got = new Uint8Array(await response.arrayBuffer());
    assert.equal(got.length, bytes.length);
    assert.equal(sha(got), sha(bytes));
    for (const name of ["content-type", "etag", "content-length", "cache-control", "vary"]) {
      assert.equal(response.headers.get(name), expected.headers.get(name), name);
    }
    // Links are on the request's own origin (no base URL is configured).
    const feed = JSON.parse(new TextDecoder().decode(got));
    assert.equal(feed.data.length, ITEMS);
    for (const item of feed.data) {
      assert.match(item.link, new RegExp(`^${origin}/docs/page-\\d+\\.json$`));
    }
  });

  it("answers gzip when asked, as the service encodes it", async () => {
    const response = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${origin}/api/content.json`, { headers: { "Accept-Encoding": "gzip" } }, resolve)
    );
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk);
    assert.equal(response.headers["content-encoding"], "gzip");
    const { bytes } = await direct(s.api, `${origin}/api/content.json`);
    assert.equal(sha(gunzipSync(Buffer.concat(chunks))), sha(bytes));
  });

  it("answers HEAD with the GET's headers and no body, and 304 to a matching If-None-Match", async () => {
    const get = await fetch(`${origin}/docs/page-001.json`);
    const etag = get.headers.get("etag")!;
    const length = get.headers.get("content-length");
    await get.arrayBuffer();
    const head = await fetch(`${origin}/docs/page-001.json`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), length);
    assert.equal(head.headers.get("etag"), etag);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const notModified = await fetch(`${origin}/docs/page-001.json`, {
      headers: { "If-None-Match": etag },
    });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get("etag"), etag);
    assert.equal((await notModified.arrayBuffer()).byteLength, 0);
  });

  it("passes problem documents on: 404, 400, 405 with Allow, 400 for a Host that names no host", async () => {
    for (
      const [path, status, method] of [
        ["/docs/nope.json", 404, "GET"],
        ["/api/content.json?limit=abc", 400, "GET"],
        ["/api/content.json", 405, "DELETE"],
      ] as const
    ) {
      const response = await fetch(`${origin}${path}`, { method });
      assert.equal(response.status, status, path);
      assert.equal(response.headers.get("content-type"), "application/problem+json", path);
      const problem = await response.json();
      assert.equal(problem.status, status);
      if (status === 400) assert.match(problem.detail, /limit/);
      if (status === 405) assert.equal(response.headers.get("allow"), "GET, HEAD");
    }
    const raw = await new Promise<string>((resolve) => {
      const { port } = new URL(origin);
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write("GET /api/content.json HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n");
      });
      let text = "";
      socket.on("data", (chunk) => text += chunk);
      socket.on("end", () => resolve(text));
    });
    assert.match(raw, /^HTTP\/1\.1 400 /);
    assert.match(raw, /does not name a host/);
  });

  it("streams a request body to POST /api/mcp, and a body over the limit is a 413", async () => {
    const response = await fetch(`${origin}/api/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: TOOLS_LIST,
    });
    assert.equal(response.status, 200);
    assert.ok((await response.json()).result.tools.length > 0);
    // A body that arrives in parts.
    const parts = await new Promise<string>((resolve) => {
      const request = http.request(`${origin}/api/mcp`, {
        method: "POST",
        headers: { ...MCP_HEADERS, "Content-Length": String(TOOLS_LIST.length) },
      }, async (answer) => {
        let text = "";
        for await (const chunk of answer) text += chunk;
        resolve(text);
      });
      request.write(TOOLS_LIST.slice(0, 7));
      setImmediate(() => request.end(TOOLS_LIST.slice(7)));
    });
    assert.ok(JSON.parse(parts).result.tools.length > 0);
    const large = await fetch(`${origin}/api/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: " ".repeat(200 * 1024) + TOOLS_LIST,
    });
    assert.equal(large.status, 413);
    await large.arrayBuffer();
    // The server goes on answering.
    assert.equal((await fetch(`${origin}/api/health`)).status, 200);
  });

  it("stops writing when the client goes away mid-response, and goes on answering", async () => {
    const path = "/api/content.json?include=body";
    const { bytes } = await direct(s.api, `${origin}${path}`);
    let pending: Promise<number> | undefined;
    const written = await abandon(
      origin,
      path,
      new Promise<number>((resolve) => {
        // The connection's bytes once the listener of that request settled.
        const poll = () => {
          if (lastClosed) {
            pending = lastClosed.written;
            lastClosed.settled.then(() => pending!.then(resolve));
          } else setImmediate(poll);
        };
        lastClosed = undefined;
        poll();
      }),
    );
    assert.ok(
      written < bytes.length / 2,
      `wrote ${written} of ${bytes.length} bytes to a client that went away`,
    );
    assert.equal((await fetch(`${origin}/api/health`)).status, 200);
  });

  it("refuses a prefix that is not a path", () => {
    assert.throws(() => toNodeListener(s.api, { prefix: "feed" }), TypeError);
    assert.throws(() => toNodeListener(s.api, { prefix: "/feed?x" }), TypeError);
  });
});

describe("toNodeListener under Express, mounted at /feed", { skip: SKIP, timeout: 300_000 }, () => {
  let s: TestSite;
  let server: http.Server;
  let origin = "";
  before(async () => {
    const { default: express } = await import("express");
    s = await site({
      "docs/intro.md": md({ title: "Intro" }, LONG),
      "docs/guide.md": md({ title: "Guide" }, LONG),
      "docs/more.md": md({ title: "More" }, LONG),
    }, { config: configFor(["docs", "api", "mcp", "llms"]) });
    const app = express();
    app.get("/", (_req, res) => {
      res.send("the app's own home");
    });
    app.use("/feed", toNodeListener(s.api));
    // A body parser in front, as many apps have: the listener takes what it read.
    app.use("/parsed", express.json(), toNodeListener(s.api));
    server = http.createServer(app);
    origin = await listen(server);
  });
  after(async () => {
    await close(server);
    await s.close();
  });

  it("routes under the mount path and writes links under it", async () => {
    const feed = await (await fetch(`${origin}/feed/api/content.json`)).json();
    assert.equal(feed.meta.total, 3);
    assert.equal(feed.meta.url, `${origin}/feed/`);
    for (const item of feed.data) {
      assert.ok(item.link.startsWith(`${origin}/feed/docs/`), item.link);
      const form = await fetch(item.link);
      assert.equal(form.status, 200, item.link);
      assert.equal((await form.json()).id, item.id);
    }
    const page = await fetch(`${origin}/feed/api/content.json?limit=1`);
    assert.match(page.headers.get("link")!, new RegExp(`<${origin}/feed/api/content\\.json\\?`));
    await page.arrayBuffer();
    const llms = await (await fetch(`${origin}/feed/llms.txt`)).text();
    assert.match(llms, new RegExp(`\\(${origin}/feed/docs/intro\\.md\\)`));
    // The app's own routes are its own; what is not the feed's under /feed is a 404 problem.
    assert.equal(await (await fetch(`${origin}/`)).text(), "the app's own home");
    const missing = await fetch(`${origin}/feed/nope`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).detail, "nothing at /feed/nope");
  });

  it("answers the index of routes at the mount path, with or without its slash", async () => {
    for (const path of ["/feed", "/feed/"]) {
      const index = await (await fetch(`${origin}${path}`)).json();
      assert.equal(index.routes[0].url, `${origin}/feed/`, path);
      assert.equal(index.routes[1].url, `${origin}/feed/api/content.json`, path);
    }
    assert.equal((await (await fetch(`${origin}/feed/api/health`)).json()).status, "ok");
  });

  it("answers HEAD, 304 and POST /api/mcp, streamed or read by a body parser first", async () => {
    const get = await fetch(`${origin}/feed/docs/intro.json`);
    const etag = get.headers.get("etag")!;
    await get.arrayBuffer();
    const head = await fetch(`${origin}/feed/docs/intro.json`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), etag);
    const cached = await fetch(`${origin}/feed/docs/intro.json`, {
      headers: { "If-None-Match": etag },
    });
    assert.equal(cached.status, 304);
    for (const mount of ["/feed", "/parsed"]) {
      const response = await fetch(`${origin}${mount}/api/mcp`, {
        method: "POST",
        headers: MCP_HEADERS,
        body: TOOLS_LIST,
      });
      assert.equal(response.status, 200, mount);
      assert.ok((await response.json()).result.tools.length > 0, mount);
    }
  });
});

describe("toNodeListener under Fastify, with a prefix", { skip: SKIP, timeout: 300_000 }, () => {
  let s: TestSite;
  let origin = "";
  let app: Awaited<ReturnType<typeof makeApp>>;
  const makeApp = async (api: ContentApi) => {
    const { default: Fastify } = await import("fastify");
    const fastify = Fastify();
    fastify.get("/", () => "the app's own home");
    // deno-lint-ignore require-await -- a Fastify plugin is async (or takes a callback)
    await fastify.register(async (scope) => {
      // The feed reads its own request bodies: this scope leaves them unread.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
      const feed = toNodeListener(api, { prefix: "/feed" });
      // As docs/embedding.md shows it.
      for (const url of ["/feed", "/feed/*"]) {
        scope.all(url, (request, reply) => {
          reply.hijack();
          return feed(request.raw, reply.raw);
        });
      }
    });
    return fastify;
  };
  before(async () => {
    s = await largeSite(configFor(["docs", "api", "mcp"]));
    app = await makeApp(s.api);
    origin = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(async () => {
    await app.close();
    await s.close();
  });

  it("streams a large body under the prefix, with links under it", async () => {
    const path = "/api/content.json?include=body";
    const { bytes } = await direct(s.api, `${origin}${path}`);
    const response = await fetch(`${origin}/feed${path}`);
    assert.equal(response.status, 200);
    const text = await response.text();
    const feed = JSON.parse(text);
    assert.equal(feed.data.length, ITEMS);
    for (const item of feed.data) {
      assert.match(item.link, new RegExp(`^${origin}/feed/docs/page-\\d+\\.json$`));
    }
    // Byte for byte the service's answer, its links under the prefix.
    const unprefixed = text.replaceAll(`"${origin}/feed/`, `"${origin}/`);
    assert.equal(sha(new TextEncoder().encode(unprefixed)), sha(bytes));
    assert.equal(await (await fetch(`${origin}/`)).text(), "the app's own home");
  });

  it("answers HEAD, 304, problems and POST /api/mcp", async () => {
    const get = await fetch(`${origin}/feed/docs/page-002.json`);
    const etag = get.headers.get("etag")!;
    await get.arrayBuffer();
    const head = await fetch(`${origin}/feed/docs/page-002.json`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("etag"), etag);
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    const cached = await fetch(`${origin}/feed/docs/page-002.json`, {
      headers: { "If-None-Match": etag },
    });
    assert.equal(cached.status, 304);
    const missing = await fetch(`${origin}/feed/docs/nope.json`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get("content-type"), "application/problem+json");
    assert.equal((await missing.json()).detail, "nothing at /feed/docs/nope.json");
    const mcp = await fetch(`${origin}/feed/api/mcp`, {
      method: "POST",
      headers: MCP_HEADERS,
      body: TOOLS_LIST,
    });
    assert.equal(mcp.status, 200);
    assert.ok((await mcp.json()).result.tools.length > 0);
    const index = await (await fetch(`${origin}/feed`)).json();
    assert.equal(index.routes[1].url, `${origin}/feed/api/content.json`);
  });
});
