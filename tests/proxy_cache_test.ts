// Behind a real cache (SPEC 9): nginx with proxy_cache in front of the
// service. It serves hits, revalidates a stale answer with If-None-Match
// and gets a 304, and never hands a gzip body to a client that asked for
// identity, or the other way round (Vary: Accept-Encoding). Skipped, saying
// how to install nginx, where there is none (.ci/run installs it).
import { after, before, describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { serve } from "srvx";
import { createService } from "../src/service.ts";
import { LONG, md, writeSite } from "./helpers.ts";

const NGINX = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"].find(
  existsSync,
) ?? (spawnSync("nginx", ["-v"]).error ? undefined : "nginx");
const SKIP = NGINX
  ? false
  : "nginx is not installed: `sudo apt-get install nginx-light` (Debian, Ubuntu) or `brew install nginx`";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A raw GET through the cache: status, headers and the body's bytes as sent (never decoded). */
async function get(url: string, headers: Record<string, string> = {}) {
  const { hostname, port, pathname, search } = new URL(url);
  const head = Object.entries({ Host: `${hostname}:${port}`, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`).join("");
  const raw: Buffer = await new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(
      Number(port),
      hostname,
      () => socket.write(`GET ${pathname}${search} HTTP/1.1\r\n${head}Connection: close\r\n\r\n`),
    );
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks)));
    socket.on("error", reject);
  });
  const split = raw.indexOf("\r\n\r\n");
  const [statusLine, ...lines] = raw.subarray(0, split).toString("latin1").split("\r\n");
  const headerMap = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headerMap.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  let body = raw.subarray(split + 4);
  if (headerMap.get("transfer-encoding") === "chunked") body = unchunk(body);
  return { status: Number(statusLine.split(" ")[1]), headers: headerMap, body };
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = data.indexOf("\r\n", at);
    const size = parseInt(data.subarray(at, end).toString("latin1"), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(data.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

describe("behind nginx's proxy_cache", { skip: SKIP, timeout: 60_000 }, () => {
  let dir = "";
  let site = "";
  let nginx: ChildProcess | undefined;
  let server: ReturnType<typeof serve> | undefined;
  let close = () => {};
  /** What the service answered, in order: the cache's requests reach it. */
  const upstream: { path: string; status: number; inm: string | null }[] = [];
  let front = "";

  before(async () => {
    site = await writeSite({
      "services.yaml":
        "parameters:\n  service.content.config:\n    url: https://example.com\n    plugins: { docs: ~, api: ~, sitemap: ~ }\n",
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, Array(12).fill(LONG).join("\n\n")),
    });
    // Answers stay fresh for a second, so the test sees a stale one revalidated.
    const service = await createService({
      config: join(site, "services.yaml"),
      cacheControl: "public, max-age=1",
      logger: { info() {}, warn() {}, error() {} },
    });
    close = () => service.api.close();
    server = serve({
      port: 0,
      hostname: "127.0.0.1",
      silent: true,
      fetch: async (request) => {
        const response = await service.handle(request);
        upstream.push({
          path: new URL(request.url).pathname,
          status: response.status,
          inm: request.headers.get("if-none-match"),
        });
        return response;
      },
    });
    await server.ready();
    dir = await mkdtemp(join(tmpdir(), "content-feed-nginx-"));
    await mkdir(join(dir, "cache"));
    await mkdir(join(dir, "temp"));
    const port = await freePort();
    front = `http://127.0.0.1:${port}`;
    const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
      .map((kind) => `${kind}_temp_path ${dir}/temp/${kind};`).join("\n  ");
    await writeFile(
      join(dir, "nginx.conf"),
      `daemon off;
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 64; }
http {
  access_log off;
  ${temp}
  proxy_cache_path ${dir}/cache levels=1 keys_zone=feed:1m max_size=64m inactive=10m use_temp_path=off;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass ${server.url!.replace(/\/$/, "")};
      proxy_http_version 1.1;
      proxy_cache feed;
      proxy_cache_revalidate on;
      add_header X-Cache-Status $upstream_cache_status always;
    }
  }
}
`,
    );
    nginx = spawn(NGINX!, ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
    for (let i = 0; i < 100; i++) {
      try {
        await get(`${front}/sitemap.xml`);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    upstream.length = 0;
  });
  after(async () => {
    nginx?.kill("SIGTERM");
    await server?.close();
    close();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (site) await rm(site, { recursive: true, force: true });
  });

  it("serves a hit without asking the service again", async () => {
    const first = await get(`${front}/api/content.json`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("x-cache-status"), "MISS");
    const second = await get(`${front}/api/content.json`);
    assert.equal(second.headers.get("x-cache-status"), "HIT");
    assert.deepEqual(second.body, first.body);
    assert.equal(second.headers.get("etag"), first.headers.get("etag"));
    assert.equal(upstream.filter((r) => r.path === "/api/content.json").length, 1);
  });

  it("revalidates a stale answer with If-None-Match and the service's 304", async () => {
    const fresh = await get(`${front}/docs/a.json`);
    assert.equal(fresh.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const again = await get(`${front}/docs/a.json`);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get("x-cache-status"), "REVALIDATED");
    assert.deepEqual(again.body, fresh.body);
    const asked = upstream.filter((r) => r.path === "/docs/a.json");
    assert.equal(asked.length, 2);
    assert.equal(asked[1].inm, fresh.headers.get("etag"), "the cache sent the ETag it holds");
    assert.equal(asked[1].status, 304, "the service answered 304");
    // A client's own If-None-Match gets a 304 from the cache.
    const client = await get(`${front}/docs/a.json`, {
      "If-None-Match": fresh.headers.get("etag")!,
    });
    assert.equal(client.status, 304);
  });

  it("keeps gzip and identity apart (Vary: Accept-Encoding)", async () => {
    const path = "/docs/b.json";
    const zipped = await get(`${front}${path}`, { "Accept-Encoding": "gzip" });
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    assert.match(zipped.headers.get("vary") ?? "", /Accept-Encoding/i);
    const plain = await get(`${front}${path}`);
    assert.equal(
      plain.headers.get("content-encoding"),
      undefined,
      "identity for a client without gzip",
    );
    const expected = JSON.parse(plain.body.toString("utf8"));
    assert.deepEqual(JSON.parse(gunzipSync(zipped.body).toString("utf8")), expected);
    for (let i = 0; i < 3; i++) {
      const z = await get(`${front}${path}`, { "Accept-Encoding": "gzip" });
      assert.equal(z.headers.get("content-encoding"), "gzip");
      assert.deepEqual(JSON.parse(gunzipSync(z.body).toString("utf8")), expected);
      const p = await get(`${front}${path}`, { "Accept-Encoding": "identity" });
      assert.equal(p.headers.get("content-encoding"), undefined);
      assert.deepEqual(JSON.parse(p.body.toString("utf8")), expected);
    }
  });
});
