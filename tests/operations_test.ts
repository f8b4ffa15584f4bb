// Operations (SPEC 11): `GET /api/health` says "starting" until the first
// index is served, then "ok" with the index's counts, build time and cursor;
// the server listens before the first index is built; SIGTERM and SIGINT
// stop accepting, let the requests in flight finish (at most 10 s), close the
// journal and exit 0, from `npm start` too; the start-up line prints a URL
// that answers; `GET /` is a short index of the enabled routes. The server
// tests start only this runtime's server (`npm test` runs each runtime).
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import process from "node:process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reachableOrigin, SHUTDOWN_GRACE_MS } from "../src/cli/serve.ts";
import { createStartingHandler } from "../src/http/starting.ts";
import {
  ALL_PLUGINS,
  configFor,
  git,
  HAS_GIT,
  LONG,
  md,
  removeSite,
  withSite,
  writeSite,
} from "./helpers.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES } from "./server_helpers.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const FILES = {
  "docs/intro.md": md({ title: "Intro" }, LONG),
  "docs/guide.md": md({ title: "Guide" }, LONG),
  "blog/2026-01-10-hello.md": md({ title: "Hello" }, LONG),
  "docs/draft.md": md({ title: "Draft", draft: true }, LONG),
  "pages/hidden.md": md({ title: "Hidden", indexable: false }, LONG),
};

/** A process this file started, and what it printed. */
interface Launched {
  readonly child: ChildProcess;
  /** The process to signal: the server itself (see {@link launchServer}). */
  readonly pid: number;
  /** Resolves with the first match of `pattern` in stdout (so far or later). */
  waitFor(pattern: RegExp): Promise<RegExpExecArray>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal that ended it). */
  readonly exited: Promise<number | string>;
}

/**
 * Starts this runtime's server under a shell that prints its pid and, once
 * it ends, its exit status: Deno's child_process reports a signal for a
 * child that was signalled, even when the child exited 0 itself.
 */
async function launchServer(env: Record<string, string>): Promise<Launched> {
  const shell = launch([
    "sh",
    "-c",
    '"$@" & echo "pid=$!"; wait $!; echo "exit=$?"',
    "sh",
    ...SERVER,
  ], env);
  const [, pid] = await shell.waitFor(/^pid=(\d+)$/m);
  const exited = shell.waitFor(/^exit=(\d+)$/m).then(([, code]) => Number(code));
  return { ...shell, pid: Number(pid), exited };
}

function launch(
  command: string[],
  env: Record<string, string>,
  options: { cwd?: string; detached?: boolean } = {},
): Launched {
  const child = spawn(command[0], command.slice(1), {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DENO_NO_UPDATE_CHECK: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  let out = "", err = "";
  const waiting: { pattern: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  const check = () => {
    for (const wait of [...waiting]) {
      const match = wait.pattern.exec(out);
      if (match) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve(match);
      }
    }
  };
  child.stdout!.on("data", (chunk) => {
    out += chunk;
    check();
  });
  child.stderr!.on("data", (chunk) => err += chunk);
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal!))
  );
  return {
    child,
    pid: child.pid!,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        waiting.push({ pattern, resolve });
        check();
        exited.then((code) => {
          if (waiting.some((w) => w.pattern === pattern)) {
            reject(new Error(`exited ${code} before ${pattern}: ${out}${err}`));
          }
        });
      });
    },
  };
}

/** The server's command under this runtime. */
const SERVER = RUNTIMES[OWN_RUNTIME]("main.ts");

/** The origin the start-up line names (the feed's URL, whose origin tests build on). */
const LISTENING = /content-feed listening on (http:\/\/[^/ ]+)(\S*) · /;
/** The origin the line printed once the server listens, before the content is served. */
const STARTING = /content-feed starting: .*?(http:\/\/[^/ ]+)\/api\/health answers "starting"/;

/** Whether a new connection to `origin` is refused (the server stopped accepting). */
function refused(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(true));
  });
}

/** Waits until new connections are refused, asking at most 400 times. */
async function untilRefused(origin: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (await refused(origin)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`${origin} still accepts connections`);
}

/** An HTTP/1.1 exchange over a socket the test drives: what it sent, and everything it got. */
function openSocket(
  origin: string,
): Promise<{ socket: net.Socket; received: () => Buffer; ended: Promise<Buffer> }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      const chunks: Buffer[] = [];
      const ended = new Promise<Buffer>((done) => {
        socket.on("end", () => done(Buffer.concat(chunks)));
        socket.on("close", () => done(Buffer.concat(chunks)));
      });
      socket.on("data", (chunk) => chunks.push(chunk));
      resolve({ socket, received: () => Buffer.concat(chunks), ended });
    });
    socket.on("error", reject);
  });
}

/** A raw HTTP/1.1 response: its status, headers (lower-case) and body bytes. */
function parseResponse(
  bytes: Buffer,
): { status: number; headers: Record<string, string>; body: Buffer } {
  const end = bytes.indexOf("\r\n\r\n");
  assert.ok(end > 0, `a response: ${bytes.subarray(0, 200)}`);
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = bytes.subarray(end + 4);
  if (headers["transfer-encoding"] === "chunked") {
    const parts: Buffer[] = [];
    for (let at = 0;;) {
      const lineEnd = body.indexOf("\r\n", at);
      const size = parseInt(body.subarray(at, lineEnd).toString(), 16);
      if (size === 0) break;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(parts);
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** A tools/list JSON-RPC request for the MCP route. */
const TOOLS_LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

/** The head of a POST /api/mcp whose body is sent by the test, in parts. */
function mcpHead(origin: string, length: number): string {
  return `POST /api/mcp HTTP/1.1\r\nHost: ${new URL(origin).host}\r\n` +
    `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `Content-Length: ${length}\r\nConnection: close\r\n\r\n`;
}

describe("GET /api/health", () => {
  it("answers ok with the item counts, the index's build time and its cursor, never cached", async () => {
    await withSite(FILES, {}, async (s) => {
      const { status, body, headers } = await s.json("/api/health");
      assert.equal(status, 200);
      const feed = (await s.json("/api/content.json")).body;
      assert.deepEqual(body, {
        status: "ok",
        items: s.api.index.items.length,
        feed: feed.meta.total,
        built: new Date(s.api.index.builtAt).toISOString(),
        cursor: feed.meta.cursor,
      });
      assert.equal(body.items, 4, "every served item: the draft is not served");
      assert.equal(body.feed, 3, "the feed leaves out the item that is not indexable");
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(headers.get("cache-control"), "no-store");
      assert.equal(headers.get("access-control-allow-origin"), "*");
      const head = await s.request("/api/health", { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), "");
      // A route like the others: other methods are a 405 with what it allows.
      const post = await s.request("/api/health", { method: "POST" });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get("allow"), "GET, HEAD");
    });
  });

  it("follows a new index: its counts, build time and cursor", async () => {
    let clock = Date.UTC(2026, 10, 21, 9, 15, 2);
    await withSite(FILES, { now: () => clock }, async (s) => {
      const before = (await s.json("/api/health")).body;
      // Asked again, the same answer comes from the kept one.
      assert.deepEqual((await s.json("/api/health")).body, before);
      clock += 60_000;
      await writeFile(join(s.root, "docs/more.md"), md({ title: "More" }, LONG));
      await s.api.reload();
      const later = (await s.json("/api/health")).body;
      assert.equal(later.items, before.items + 1);
      assert.equal(later.feed, before.feed + 1);
      assert.equal(later.built, new Date(clock).toISOString());
      assert.notEqual(later.cursor, before.cursor);
      assert.equal(later.cursor, (await s.json("/api/content.json")).body.meta.cursor);
    });
  });

  it("answers 503 with status starting (and every other route a 503 problem) before the first index", async () => {
    const handle = createStartingHandler(
      { cors: true, cacheControl: "public, max-age=60" },
      "/content",
    );
    for (const path of ["/content/api/health", "/api/health"]) {
      const response = await handle(new Request(`http://localhost${path}`));
      assert.equal(response.status, 503, path);
      assert.deepEqual(await response.json(), { status: "starting" });
      assert.equal(response.headers.get("retry-after"), "1");
      assert.equal(response.headers.get("cache-control"), "no-store");
      assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
    }
    const head = await handle(new Request("http://localhost/api/health", { method: "HEAD" }));
    assert.equal(head.status, 503);
    assert.equal(await head.text(), "");
    for (
      const [method, path] of [["GET", "/content/api/content.json"], ["GET", "/"], [
        "POST",
        "/api/mcp",
      ]]
    ) {
      const response = await handle(new Request(`http://localhost${path}`, { method }));
      assert.equal(response.status, 503, path);
      assert.equal(response.headers.get("content-type"), "application/problem+json");
      assert.equal(response.headers.get("retry-after"), "1");
      const problem = await response.json();
      assert.equal(problem.status, 503);
      assert.match(problem.detail, /starting/);
    }
    const preflight = await handle(
      new Request("http://localhost/api/health", { method: "OPTIONS" }),
    );
    assert.equal(preflight.status, 204);
  });
});

describe("GET /", () => {
  it("lists the enabled routes with their URLs, methods and summaries; each one answers", async () => {
    await withSite(FILES, {}, async (s) => {
      const { status, body, headers } = await s.json("/");
      assert.equal(status, 200);
      assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
      assert.equal(body.openapi, "https://example.com/api/openapi.json");
      const openapi = (await s.json("/api/openapi.json")).body;
      assert.deepEqual(body.routes.map((r: Json) => r.path), Object.keys(openapi.paths));
      assert.deepEqual(body.routes.map((r: Json) => r.path), [
        "/",
        "/api/content.json",
        "/api/openapi.json",
        "/api/health",
        "/sitemap.xml",
        "/llms.txt",
        "/llms-full.txt",
        "/feed.json",
        "/api/mcp",
        "/{type}/{uri}.json",
        "/{type}/{uri}.md",
      ]);
      for (const route of body.routes) {
        assert.equal(route.url, `https://example.com${route.path}`);
        assert.ok(route.summary.length > 0, route.path);
        if (route.path === "/api/mcp") {
          assert.deepEqual(route.methods, ["POST"]);
          continue;
        }
        assert.deepEqual(route.methods, ["GET", "HEAD"]);
        if (route.path.includes("{")) continue;
        assert.equal((await s.request(route.path)).status, 200, route.path);
      }
      // A HEAD of the index, and its ETag revalidates.
      const etag = headers.get("etag")!;
      assert.equal((await s.request("/", { headers: { "If-None-Match": etag } })).status, 304);
    });
  });

  it("lists only what the configuration enables, under the base URL's path", async () => {
    await withSite(
      FILES,
      { config: configFor(["docs"], "https://example.com/content") },
      async (s) => {
        for (const path of ["/content", "/content/", "/"]) {
          const { status, body } = await s.json(path);
          assert.equal(status, 200, path);
          assert.deepEqual(body.routes.map((r: Json) => r.url), [
            "https://example.com/content/",
            "https://example.com/content/api/openapi.json",
            "https://example.com/content/api/health",
            "https://example.com/content/{type}/{uri}.json",
            "https://example.com/content/{type}/{uri}.md",
          ]);
        }
        assert.equal((await s.request("/content/api/content.json")).status, 404);
        assert.equal((await s.request("/content/api/health")).status, 200);
        // Other methods on the index: a 405, as on every route.
        const put = await s.request("/content", { method: "PUT" });
        assert.equal(put.status, 405);
        assert.equal(put.headers.get("allow"), "GET, HEAD");
      },
    );
  });
});

describe("the start-up line", () => {
  it("names localhost for the wildcard addresses, and the address itself otherwise", () => {
    assert.equal(reachableOrigin("http://0.0.0.0:8000/"), "http://localhost:8000");
    assert.equal(reachableOrigin("http://[::]:8000/"), "http://localhost:8000");
    assert.equal(reachableOrigin("http://127.0.0.1:9000/"), "http://127.0.0.1:9000");
    assert.equal(reachableOrigin("http://[::1]:9000/"), "http://[::1]:9000");
  });

  it(
    "prints a URL that answers with the feed, bound to every address",
    { timeout: 120_000 },
    async () => {
      const root = await writeSite({ "services.yaml": ALL_PLUGINS, ...FILES });
      const server = await launchServer({
        CONTENT_CONFIG: join(root, "services.yaml"),
        HOST: "0.0.0.0",
      });
      try {
        const [, origin, path] = await server.waitFor(LISTENING);
        assert.match(origin, /^http:\/\/localhost:\d+$/);
        assert.equal(path, "/api/content.json");
        const feed = await (await fetch(`${origin}${path}`)).json();
        assert.equal(feed.meta.total, 3);
        const home = await (await fetch(`${origin}/`)).json();
        assert.equal(home.routes[1].path, "/api/content.json");
      } finally {
        process.kill(server.pid, "SIGTERM");
        assert.equal(await server.exited, 0);
        await removeSite(root);
      }
    },
  );
});

describe("the server listens before its first index", () => {
  // A git that waits for the test's word: the start-up's first load waits for
  // git's dates, so the server is "starting" for exactly as long as the test says.
  let hold = "";
  let release = "";
  const REAL_GIT = HAS_GIT
    ? spawnSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim()
    : "";
  before(async () => {
    hold = await mkdtemp(join(tmpdir(), "content-feed-held-git-"));
    release = join(hold, "release");
    await writeFile(
      join(hold, "git"),
      // Waits while the folder is there: once `after` removes it, no git is left waiting
      // (a loop that waited on the release file alone outlived a run whose release came and
      // went, forking `sleep` 50 times a second for good).
      `#!/bin/sh\nwhile [ ! -e "${release}" ] && [ -d "${hold}" ]; do sleep 0.02; done\nexec "${REAL_GIT}" "$@"\n`,
    );
    await chmod(join(hold, "git"), 0o755);
  });
  after(async () => {
    await writeFile(release, ""); // let any git still waiting go
    await rm(hold, { recursive: true, force: true });
  });
  /** A server on a new site (no state folder: its first load asks git), git held. */
  const startHeld = async () => {
    await rm(release, { force: true });
    const root = await writeSite({ "services.yaml": ALL_PLUGINS, ...FILES });
    git(root, ["init", "-q"]);
    git(root, ["add", "."]);
    git(root, ["commit", "-q", "-m", "content"], "2026-01-02T03:04:05Z");
    const server = await launchServer({
      CONTENT_CONFIG: join(root, "services.yaml"),
      PATH: `${hold}:${process.env.PATH}`,
    });
    return { root, server };
  };
  const skip = REAL_GIT === "" ? "no git on this machine" : false;

  it("says starting on /api/health (503, Retry-After) until the content is served, then ok", {
    skip,
  }, async () => {
    const { root, server } = await startHeld();
    try {
      const [, origin] = await server.waitFor(STARTING);
      const health = await fetch(`${origin}/api/health`);
      assert.equal(health.status, 503);
      assert.equal(health.headers.get("retry-after"), "1");
      assert.deepEqual(await health.json(), { status: "starting" });
      const feed = await fetch(`${origin}/api/content.json`);
      assert.equal(feed.status, 503);
      assert.equal(feed.headers.get("content-type"), "application/problem+json");
      assert.equal(feed.headers.get("retry-after"), "1");
      assert.equal((await feed.json()).status, 503);
      assert.doesNotMatch(server.stdout(), /listening on/);
      await writeFile(release, "");
      await server.waitFor(LISTENING);
      const ok = await fetch(`${origin}/api/health`);
      assert.equal(ok.status, 200);
      const body = await ok.json();
      assert.equal(body.status, "ok");
      assert.equal(body.items, 4);
      assert.equal((await (await fetch(`${origin}/api/content.json`)).json()).meta.total, 3);
    } finally {
      process.kill(server.pid, "SIGTERM");
      assert.equal(await server.exited, 0);
      await removeSite(root);
    }
  });

  it("stops on SIGTERM while it is starting, and exits 0", { skip, timeout: 120_000 }, async () => {
    const { root, server } = await startHeld();
    try {
      const [, origin] = await server.waitFor(STARTING);
      assert.equal((await fetch(`${origin}/api/health`)).status, 503);
      process.kill(server.pid, "SIGTERM");
      assert.equal(await server.exited, 0);
      assert.match(server.stdout(), /content-feed stopped \(SIGTERM\)/);
      assert.doesNotMatch(server.stdout(), /listening on/);
      assert.equal(await refused(origin), true);
    } finally {
      await removeSite(root);
    }
  });
});

describe("stopping on a signal", () => {
  let root = "";
  /** Items in the feed of the large site. */
  const ITEMS = 40;
  before(async () => {
    const files: Record<string, string> = {
      "services.yaml": configFor(["docs", "api", "mcp"]),
    };
    // About 4 MB of bodies: a feed with include=body that the client reads slowly.
    const body = `${LONG}\n\n`.repeat(800);
    for (let i = 0; i < ITEMS; i++) files[`docs/page-${i}.md`] = md({ title: `Page ${i}` }, body);
    root = await writeSite(files);
  });
  after(async () => {
    await removeSite(root);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`${signal}: stops accepting, finishes the requests in flight, closes the journal, exits 0`, {
      timeout: 120_000,
    }, async () => {
      const server = await launchServer({ CONTENT_CONFIG: join(root, "services.yaml") });
      const [, origin] = await server.waitFor(LISTENING);
      // A large answer the client has not read yet, on a connection kept alive: the
      // server must not take it for idle once the answer is handed over whole.
      const large = await openSocket(origin);
      large.socket.write(
        `GET /api/content.json?include=body,text,sections HTTP/1.1\r\nHost: ${
          new URL(origin).host
        }\r\n\r\n`,
      );
      // Its first bytes are out: the answer is made and handed to the connection.
      await new Promise((resolve) => large.socket.once("data", resolve));
      large.socket.pause();
      // A request whose body is still arriving: in flight until the test sends the rest.
      const slow = await openSocket(origin);
      slow.socket.write(mcpHead(origin, TOOLS_LIST.length));
      slow.socket.write(TOOLS_LIST.slice(0, 10));
      // The server has begun the slow request once it answers another one after it.
      assert.equal((await fetch(`${origin}/api/health`)).status, 200);
      process.kill(server.pid, signal);
      await server.waitFor(/content-feed stopping/);
      // Under Deno the server stops accepting once the requests with a body are
      // answered (its shutdown would cut the bodies still arriving); elsewhere at once.
      if (OWN_RUNTIME !== "deno") await untilRefused(origin);
      assert.equal(alive(server.pid), true, "it waits for the requests in flight");
      slow.socket.write(TOOLS_LIST.slice(10));
      const answered = parseResponse(await slow.ended);
      assert.equal(answered.status, 200, answered.body.toString());
      assert.ok(JSON.parse(answered.body.toString()).result.tools.length > 0);
      await untilRefused(origin);
      assert.equal(alive(server.pid), true, "the large answer is still being read");
      large.socket.resume();
      const read = parseResponse(await large.ended);
      assert.equal(read.status, 200);
      assert.equal(read.body.length, Number(read.headers["content-length"]));
      const feed = JSON.parse(read.body.toString());
      assert.equal(feed.data.length, ITEMS);
      assert.ok(feed.data.every((item: Json) => item.body.length > 50_000));
      // More than the connection's buffers hold: most of it was still the server's to write.
      assert.ok(read.body.length > 10_000_000, `${read.body.length} bytes`);
      assert.equal(await server.exited, 0);
      assert.match(server.stdout(), new RegExp(`content-feed stopped \\(${signal}\\)`));
      // The journal and the derivation cache were closed whole: the next start
      // holds the journal and takes every file from the cache.
      const next = await launchServer({ CONTENT_CONFIG: join(root, "services.yaml") });
      try {
        await next.waitFor(LISTENING);
        const [, files, cached] = await next.waitFor(/loaded (\d+) files in \d+ ms: (\d+) from/);
        assert.equal(Number(files), ITEMS);
        assert.equal(Number(cached), ITEMS);
        assert.doesNotMatch(next.stderr(), /holds the sync journal/);
      } finally {
        process.kill(next.pid, "SIGTERM");
        assert.equal(await next.exited, 0);
      }
    });
  }

  it(`cuts a request still in flight after ${SHUTDOWN_GRACE_MS / 1000} s, and exits 0`, {
    timeout: 120_000,
  }, async () => {
    const server = await launchServer({ CONTENT_CONFIG: join(root, "services.yaml") });
    const [, origin] = await server.waitFor(LISTENING);
    // A body that never ends.
    const stuck = await openSocket(origin);
    stuck.socket.write(mcpHead(origin, TOOLS_LIST.length));
    stuck.socket.write(TOOLS_LIST.slice(0, 10));
    assert.equal((await fetch(`${origin}/api/health`)).status, 200);
    process.kill(server.pid, "SIGTERM");
    await server.waitFor(/content-feed stopping/);
    assert.equal(await server.exited, 0);
    assert.match(server.stderr(), /requests still in flight after 10 s were cut/);
    assert.equal(await refused(origin), true);
    stuck.socket.destroy();
  });
});

describe("npm start", {
  skip: OWN_RUNTIME !== "node" &&
    "npm start runs Deno whatever runs the tests: tested once, under Node's runner",
}, () => {
  it("passes SIGTERM to the server, which exits 0 and leaves nothing running", {
    timeout: 120_000,
  }, async () => {
    const root = await writeSite({ "services.yaml": ALL_PLUGINS, ...FILES });
    // Its own process group: whatever npm starts stays in it, so the test can see what is left.
    const npm = launch(["npm", "start"], { CONTENT_CONFIG: join(root, "services.yaml") }, {
      detached: true,
    });
    try {
      const [, origin] = await npm.waitFor(LISTENING);
      assert.equal((await fetch(`${origin}/api/health`)).status, 200);
      process.kill(npm.child.pid!, "SIGTERM"); // npm alone, as a process manager does
      assert.equal(await npm.exited, 0);
      assert.match(npm.stdout(), /content-feed stopped \(SIGTERM\)/);
      assert.equal(groupAlive(npm.child.pid!), false, "nothing of npm start is left running");
      assert.equal(await refused(origin), true);
    } finally {
      if (groupAlive(npm.child.pid!)) process.kill(-npm.child.pid!, "SIGKILL");
      await removeSite(root);
    }
  });
});

/** Whether a process is alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether any process of a process group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
