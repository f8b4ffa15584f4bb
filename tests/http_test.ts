// HTTP behaviour (SPEC 9) through fetch(Request): methods, CORS, validators, compression, errors.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { compress } from "../src/http/encoding.ts";
import { ENCODINGS } from "../src/util/accept_encoding.ts";
import { LONG, md, replicaOf, site, type SiteFiles, type TestSite, withSite } from "./helpers.ts";

const ORIGIN = "http://localhost:8000";
const LAST_MODIFIED = "Sat, 21 Nov 2026 09:15:02 GMT";
const PROBLEM = "application/problem+json";
const JSON_TYPE = "application/json; charset=utf-8";

const dated = (front: Record<string, unknown>) => ({
  date: "2026-01-15",
  last_update: "2026-03-02",
  ...front,
});

/** Enough items for a feed well over 1 KiB, and one small item. */
const FILES: SiteFiles = {
  "docs/intro.md": md(dated({ title: "Intro", tags: ["Deno"] }), LONG),
  "docs/guide.md": md(dated({ title: "Guide", tags: ["Deno", "Node"] }), `${LONG}\n\n${LONG}`),
  "blog/2026-01-10-hello.md": md(dated({ title: "Hello", authors: ["Ana Pérez"] }), LONG),
  "faq/why.md": md(dated({ title: "Why?" }), LONG),
  "pages/about.md": md(dated({ title: "About" }), LONG),
  "docs/tiny.md": md(dated({ title: "Tiny", description: "t" }), "Tiny."),
};

/** Every route, GET-able with a 200. */
const ROUTES = [
  "/api/content.json",
  "/api/content.json?type=docs&limit=1",
  "/api/openapi.json",
  "/sitemap.xml",
  "/docs/intro.json",
  "/blog/2026-01-10-hello.json",
  "/docs/intro.md",
  "/llms.txt",
  "/llms-full.txt",
  "/feed.json",
  "/feed.json?type=docs",
];

/** Known routes (for 405) and their 200 content types. */
const KNOWN: Record<string, string> = {
  "/api/content.json": JSON_TYPE,
  "/api/openapi.json": JSON_TYPE,
  "/sitemap.xml": "application/xml; charset=utf-8",
  "/docs/intro.json": JSON_TYPE,
  "/docs/intro.md": "text/markdown; charset=utf-8",
  "/llms.txt": "text/plain; charset=utf-8",
  "/llms-full.txt": "text/plain; charset=utf-8",
  "/feed.json": "application/feed+json; charset=utf-8",
};

/** {@link withSite} from the helpers, on this file's site unless told otherwise. */
function onSite(
  fn: (s: TestSite) => Promise<void>,
  options: Parameters<typeof site>[1] = {},
  files: SiteFiles = FILES,
): Promise<void> {
  return withSite(files, options, fn);
}

/** Headers as sorted [name, value] pairs, for whole-set comparisons. */
function headerList(headers: Headers): [string, string][] {
  return [...headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

async function bytes(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

/** Asserts a problem document: media type, exact members, status, a detail that is a sentence. */
async function assertProblem(response: Response, status: number, title: string): Promise<string> {
  assert.equal(response.status, status);
  assert.equal(response.headers.get("content-type"), PROBLEM);
  const body = JSON.parse(await response.text());
  assert.deepEqual(Object.keys(body), ["type", "title", "status", "detail"]);
  assert.deepEqual({ ...body, detail: "" }, { type: "about:blank", title, status, detail: "" });
  assert.equal(typeof body.detail, "string");
  assert.ok(body.detail.length > 0, "detail is not empty");
  return body.detail;
}

function brSupported(): boolean {
  try {
    new CompressionStream("br" as CompressionFormat);
    return true;
  } catch {
    return false;
  }
}

describe("methods", () => {
  it("GET answers 200 on every route with its content type", async () => {
    await onSite(async (s) => {
      for (const [path, type] of Object.entries(KNOWN)) {
        const response = await s.request(path);
        assert.equal(response.status, 200, path);
        assert.equal(response.headers.get("content-type"), type, path);
        assert.ok((await response.text()).length > 0, path);
      }
    });
  });

  it("HEAD answers with the same status and headers as GET, and no body", async () => {
    await onSite(async (s) => {
      const paths = [...ROUTES, "/nope", "/docs/missing.json", "/api/content.json?limit=abc"];
      for (const path of paths) {
        for (const encoding of [undefined, "gzip"]) {
          const headers: Record<string, string> = encoding ? { "Accept-Encoding": encoding } : {};
          const get = await s.request(path, { headers });
          const head = await s.request(path, { method: "HEAD", headers });
          const label = `${path} ${encoding ?? "identity"}`;
          assert.equal(head.status, get.status, label);
          assert.deepEqual(headerList(head.headers), headerList(get.headers), label);
          assert.equal((await bytes(head)).length, 0, label);
          assert.ok((await bytes(get)).length > 0, label);
        }
      }
    });
  });

  it("POST, PUT, DELETE and PATCH on a known route are 405 with Allow and a problem", async () => {
    await onSite(async (s) => {
      for (const path of [...Object.keys(KNOWN), "/api/content.json?limit=abc"]) {
        for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
          const response = await s.request(path, { method });
          assert.equal(response.headers.get("allow"), "GET, HEAD", `${method} ${path}`);
          assert.equal(response.headers.get("access-control-allow-origin"), "*");
          assert.equal(response.headers.get("x-content-type-options"), "nosniff");
          const detail = await assertProblem(response, 405, "Method Not Allowed");
          assert.ok(detail.includes(method), detail);
        }
      }
    });
  });

  it("another method on an unknown path is a 404 problem", async () => {
    await onSite(async (s) => {
      const response = await s.request("/nope/", { method: "POST" });
      assert.equal(response.headers.get("allow"), null);
      await assertProblem(response, 404, "Not Found");
    });
  });

  it("OPTIONS is a 204 CORS preflight answer on every route", async () => {
    await onSite(async (s) => {
      for (const path of Object.keys(KNOWN)) {
        const response = await s.request(path, {
          method: "OPTIONS",
          headers: { Origin: "https://app.example", "Access-Control-Request-Method": "GET" },
        });
        assert.equal(response.status, 204, path);
        assert.equal((await bytes(response)).length, 0);
        assert.equal(response.headers.get("access-control-allow-origin"), "*");
        const methods = (response.headers.get("access-control-allow-methods") ?? "")
          .split(",").map((m) => m.trim()).sort();
        assert.deepEqual(methods, ["GET", "HEAD", "OPTIONS"]);
        assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      }
    });
  });
});

describe("CORS", () => {
  it("sends Access-Control-Allow-Origin: * on every response, errors and 304s included", async () => {
    await onSite(async (s) => {
      const etag = (await s.request("/api/content.json")).headers.get("etag")!;
      const cases: [string, RequestInit | undefined, number][] = [
        ["/api/content.json", undefined, 200],
        ["/api/content.json", { method: "HEAD" }, 200],
        ["/api/content.json", { headers: { "If-None-Match": etag } }, 304],
        ["/api/content.json?limit=abc", undefined, 400],
        ["/nope", undefined, 404],
        ["/docs/intro.json", { method: "DELETE" }, 405],
        ["/docs/intro.json", { method: "OPTIONS" }, 204],
        [`/api/content.json?search=${"a".repeat(9000)}`, undefined, 414],
      ];
      for (const [path, init, status] of cases) {
        const response = await s.request(path, init);
        assert.equal(response.status, status, path.slice(0, 40));
        assert.equal(response.headers.get("access-control-allow-origin"), "*", `${status}`);
        await response.arrayBuffer();
      }
    });
  });

  it("sends no Access-Control-Allow-Origin with cors: false", async () => {
    await onSite(async (s) => {
      const etag = (await s.request("/api/content.json")).headers.get("etag")!;
      const cases: [string, RequestInit | undefined, number][] = [
        ["/api/content.json", undefined, 200],
        ["/api/content.json", { headers: { "If-None-Match": etag } }, 304],
        ["/api/content.json?limit=abc", undefined, 400],
        ["/nope", undefined, 404],
        ["/docs/intro.json", { method: "PUT" }, 405],
        ["/docs/intro.json", { method: "OPTIONS" }, 204],
      ];
      for (const [path, init, status] of cases) {
        const response = await s.request(path, init);
        assert.equal(response.status, status, path);
        assert.equal(response.headers.get("access-control-allow-origin"), null, `${status}`);
        assert.equal(response.headers.get("x-content-type-options"), "nosniff", `${status}`);
        await response.arrayBuffer();
      }
    }, { cors: false });
  });
});

describe("ETag and If-None-Match", () => {
  it("is strong, quoted, and the same for identical requests", async () => {
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const a = (await s.request(path)).headers.get("etag");
        const b = (await s.request(path)).headers.get("etag");
        assert.match(a ?? "", /^"[\x21\x23-\x7e]+"$/, path);
        assert.equal(a, b, path);
      }
    });
  });

  it("is the same for equal content in another instance on the same journal", async () => {
    const a = await site(FILES);
    const b = await replicaOf(a.root);
    try {
      for (const path of ROUTES) {
        const ra = await a.request(path);
        const rb = await b.request(path);
        assert.equal(ra.headers.get("etag"), rb.headers.get("etag"), path);
        assert.deepEqual(await bytes(ra), await bytes(rb), path);
      }
    } finally {
      await b.close();
      await a.close();
    }
  });

  it("differs for equal content with another journal only in the feed's meta.cursor", async () => {
    const a = await site(FILES);
    const b = await site(FILES);
    try {
      assert.notEqual(a.api.cursor.split(".")[0], b.api.cursor.split(".")[0]);
      assert.equal(a.api.cursor.split(".")[1], b.api.cursor.split(".")[1]);
      for (const path of ROUTES) {
        const ra = new TextDecoder().decode(await bytes(await a.request(path)));
        const rb = new TextDecoder().decode(await bytes(await b.request(path)));
        if (path.startsWith("/api/content.json")) {
          assert.equal(ra.replace(a.api.cursor, "C"), rb.replace(b.api.cursor, "C"), path);
        } else assert.equal(ra, rb, path);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("differs between routes and changes when content changes", async () => {
    await onSite(async (s) => {
      const before = new Map<string, string>();
      for (const path of ROUTES) before.set(path, (await s.request(path)).headers.get("etag")!);
      assert.equal(new Set(before.values()).size, ROUTES.length, "every route has its own ETag");
      await writeFile(
        join(s.root, "docs/intro.md"),
        md(dated({ title: "Intro, edited", tags: ["Deno"] }), `${LONG} Edited.`),
      );
      await s.api.reload();
      for (const path of ["/api/content.json", "/docs/intro.json"]) {
        const response = await s.request(path);
        assert.equal(response.status, 200);
        assert.notEqual(response.headers.get("etag"), before.get(path), path);
        assert.match(response.headers.get("etag") ?? "", /^"[^"]+"$/);
        // An old validator no longer matches.
        const old = await s.request(path, { headers: { "If-None-Match": before.get(path)! } });
        assert.equal(old.status, 200, path);
      }
      const item = await s.json("/docs/intro.json");
      assert.equal(item.body.title, "Intro, edited");
      // The ETag comes from the body: routes whose body did not change keep theirs (the
      // sitemap holds only loc and lastmod, and last_update is set in front matter).
      for (const path of ["/blog/2026-01-10-hello.json", "/sitemap.xml"]) {
        assert.equal((await s.request(path)).headers.get("etag"), before.get(path), path);
      }
    });
  });

  it("answers a matching If-None-Match with 304, no body and the same validators", async () => {
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const first = await s.request(path);
        const etag = first.headers.get("etag")!;
        for (const method of ["GET", "HEAD"]) {
          const response = await s.request(path, { method, headers: { "If-None-Match": etag } });
          assert.equal(response.status, 304, `${method} ${path}`);
          assert.equal((await bytes(response)).length, 0);
          assert.equal(response.headers.get("etag"), etag);
          assert.equal(response.headers.get("last-modified"), LAST_MODIFIED);
          assert.equal(response.headers.get("cache-control"), "public, max-age=60");
          assert.equal(response.headers.get("vary"), "Accept-Encoding");
          assert.equal(response.headers.get("content-encoding"), null);
          assert.equal(response.headers.get("x-content-type-options"), "nosniff");
        }
      }
    });
  });

  it("matches within a list, with *, and with a W/ prefix (weak comparison)", async () => {
    await onSite(async (s) => {
      const path = "/api/content.json";
      const etag = (await s.request(path)).headers.get("etag")!;
      const matching = [
        `"nope", ${etag}`,
        `${etag}, "nope"`,
        `"a","b",${etag}`,
        "*",
        `W/${etag}`,
        `"nope", W/${etag}`,
      ];
      for (const header of matching) {
        const response = await s.request(path, { headers: { "If-None-Match": header } });
        assert.equal(response.status, 304, header);
        assert.equal(response.headers.get("etag"), etag);
      }
    });
  });

  it("gives a compressed body its own strong ETag, which revalidates to 304", async () => {
    await onSite(async (s) => {
      const path = "/api/content.json";
      const gzip = { "Accept-Encoding": "gzip" };
      const identity = (await s.request(path)).headers.get("etag")!;
      const zipped = (await s.request(path, { headers: gzip })).headers.get("etag")!;
      assert.match(zipped, /^"[\x21\x23-\x7e]+"$/);
      assert.notEqual(zipped, identity);
      assert.equal((await s.request(path, { headers: gzip })).headers.get("etag"), zipped);
      const again = await s.request(path, { headers: { ...gzip, "If-None-Match": zipped } });
      assert.equal(again.status, 304);
      assert.equal(again.headers.get("etag"), zipped);
      assert.equal((await bytes(again)).length, 0);
    });
  });

  it("answers 200 with the body when If-None-Match does not match", async () => {
    await onSite(async (s) => {
      const path = "/api/content.json";
      const plain = await s.request(path);
      const etag = plain.headers.get("etag")!;
      const body = await bytes(plain);
      const other = `"${etag.slice(1, -2)}${etag.at(-2) === "0" ? "1" : "0"}"`;
      const missing = [`"nope"`, other, `"nope", W/"other"`, etag.slice(1, -1), `${etag}x`];
      for (const header of missing) {
        const response = await s.request(path, { headers: { "If-None-Match": header } });
        assert.equal(response.status, 200, header);
        assert.deepEqual(await bytes(response), body, header);
      }
    });
  });

  it("ignores If-Modified-Since when If-None-Match is present (RFC 9110 13.1.3)", async () => {
    await onSite(async (s) => {
      const response = await s.request("/api/content.json", {
        headers: { "If-None-Match": `"nope"`, "If-Modified-Since": LAST_MODIFIED },
      });
      assert.equal(response.status, 200);
    });
  });
});

describe("Last-Modified and If-Modified-Since", () => {
  it("is the index build time on every route", async () => {
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const response = await s.request(path);
        assert.equal(response.headers.get("last-modified"), LAST_MODIFIED, path);
      }
    });
  });

  it("answers 304 at or after the build time and 200 before it", async () => {
    await onSite(async (s) => {
      const cases: [string, number][] = [
        [LAST_MODIFIED, 304],
        ["Sat, 21 Nov 2026 09:15:03 GMT", 304],
        ["Sun, 22 Nov 2026 00:00:00 GMT", 304],
        ["Sat, 21 Nov 2026 09:15:01 GMT", 200],
        ["Fri, 20 Nov 2026 09:15:02 GMT", 200],
        ["not a date", 200],
      ];
      for (const path of ["/api/content.json", "/docs/intro.json", "/sitemap.xml"]) {
        for (const [since, status] of cases) {
          const response = await s.request(path, { headers: { "If-Modified-Since": since } });
          assert.equal(response.status, status, `${path} since ${since}`);
          assert.equal((await bytes(response)).length === 0, status === 304, since);
          assert.equal(response.headers.get("last-modified"), LAST_MODIFIED);
        }
      }
    });
  });
});

describe("Cache-Control", () => {
  it("is public, max-age=60 by default on every route", async () => {
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const response = await s.request(path);
        assert.equal(response.headers.get("cache-control"), "public, max-age=60", path);
      }
    });
  });

  it("is configurable with the cacheControl option", async () => {
    const value = "public, max-age=300, stale-while-revalidate=30";
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const response = await s.request(path);
        assert.equal(response.headers.get("cache-control"), value, path);
        const etag = response.headers.get("etag")!;
        const again = await s.request(path, { headers: { "If-None-Match": etag } });
        assert.equal(again.status, 304);
        assert.equal(again.headers.get("cache-control"), value, path);
      }
    }, { cacheControl: value });
  });
});

describe("compression", () => {
  it("compresses a body of many input slices and output chunks back to the same bytes", async () => {
    // 1.5 MB that compresses poorly: more than one 64 KiB slice in, more than one chunk out.
    const body = new Uint8Array(1_500_000);
    let seed = 7;
    for (let i = 0; i < body.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      body[i] = i % 3 ? seed >>> 24 : 65 + (i % 26);
    }
    for (const coding of ENCODINGS) {
      const packed = await compress(body, coding);
      const back = coding === "gzip" ? gunzipSync(packed) : brotliDecompressSync(packed);
      assert.ok(packed.length > 65536, `${coding}: ${packed.length} bytes`);
      assert.deepEqual(new Uint8Array(back), body, coding);
    }
    assert.deepEqual(
      new Uint8Array(gunzipSync(await compress(new Uint8Array(), "gzip"))),
      new Uint8Array(),
    );
  });

  it("gzips a body over 1 KiB for Accept-Encoding: gzip, and it inflates to the identity body", async () => {
    await onSite(async (s) => {
      for (const path of ["/api/content.json", "/api/openapi.json"]) {
        const identity = await s.request(path);
        const plain = await bytes(identity);
        assert.ok(plain.length > 1024, `${path} is over 1 KiB (${plain.length})`);
        assert.equal(identity.headers.get("content-encoding"), null);
        assert.equal(identity.headers.get("vary"), "Accept-Encoding");
        const zipped = await s.request(path, { headers: { "Accept-Encoding": "gzip" } });
        assert.equal(zipped.status, 200);
        assert.equal(zipped.headers.get("content-encoding"), "gzip");
        assert.equal(zipped.headers.get("vary"), "Accept-Encoding");
        assert.equal(zipped.headers.get("content-type"), JSON_TYPE);
        const packed = await bytes(zipped);
        assert.equal(zipped.headers.get("content-length"), String(packed.length));
        assert.ok(packed.length < plain.length);
        assert.deepEqual(new Uint8Array(gunzipSync(packed)), plain);
      }
    });
  });

  it("honours q-values and wildcards in Accept-Encoding", async () => {
    await onSite(async (s) => {
      const br = brSupported();
      const cases: [string, string | null][] = [
        ["gzip;q=0", null],
        ["identity", null],
        ["deflate", null],
        ["gzip;q=0.5, identity", "gzip"],
        ["GZIP", "gzip"],
        ["*", br ? "br" : "gzip"],
        ["*;q=0", null],
      ];
      for (const [header, coding] of cases) {
        const response = await s.request("/api/content.json", {
          headers: { "Accept-Encoding": header },
        });
        assert.equal(response.headers.get("content-encoding"), coding, header);
        await response.arrayBuffer();
      }
    });
  });

  it("uses br only when the runtime's CompressionStream supports it, else gzip", async () => {
    await onSite(async (s) => {
      const br = brSupported();
      const plain = await bytes(await s.request("/api/content.json"));
      const both = await s.request("/api/content.json", {
        headers: { "Accept-Encoding": "gzip, deflate, br" },
      });
      const packed = await bytes(both);
      if (br) {
        assert.equal(both.headers.get("content-encoding"), "br");
        assert.deepEqual(new Uint8Array(brotliDecompressSync(packed)), plain);
      } else {
        assert.equal(both.headers.get("content-encoding"), "gzip");
        assert.deepEqual(new Uint8Array(gunzipSync(packed)), plain);
      }
      const only = await s.request("/api/content.json", { headers: { "Accept-Encoding": "br" } });
      assert.equal(only.headers.get("content-encoding"), br ? "br" : null);
      const onlyBody = await bytes(only);
      assert.deepEqual(br ? new Uint8Array(brotliDecompressSync(onlyBody)) : onlyBody, plain);
    });
  });

  it("does not compress without Accept-Encoding", async () => {
    await onSite(async (s) => {
      for (const path of ROUTES) {
        const response = await s.request(path);
        assert.equal(response.headers.get("content-encoding"), null, path);
        assert.equal(response.headers.get("vary"), "Accept-Encoding", path);
        const body = await bytes(response);
        assert.equal(response.headers.get("content-length"), String(body.length));
      }
    });
  });

  it("compresses a body of 1025 bytes but not one of 1024", async () => {
    // The item's JSON grows byte for byte with its ASCII body (description and time are fixed).
    const item = (n: number) =>
      md(dated({ title: "Sized", description: "d", time: 1 }), "x".repeat(n));
    await onSite(
      async (s) => {
        const probe = (await bytes(await s.request("/docs/sized.json"))).length;
        await writeFile(join(s.root, "docs/sized.md"), item(100 + 1024 - probe));
        // sized2's id, uri and link are one character longer each.
        await writeFile(join(s.root, "docs/sized2.md"), item(100 + 1025 - probe - 3));
        await s.api.reload();
        for (
          const [path, size, coding] of [
            ["/docs/sized.json", 1024, null],
            ["/docs/sized2.json", 1025, "gzip"],
          ] as const
        ) {
          const plain = await bytes(await s.request(path));
          assert.equal(plain.length, size, path);
          const response = await s.request(path, { headers: { "Accept-Encoding": "gzip" } });
          assert.equal(response.headers.get("vary"), "Accept-Encoding");
          assert.equal(response.headers.get("content-encoding"), coding, path);
          const body = await bytes(response);
          assert.deepEqual(coding ? new Uint8Array(gunzipSync(body)) : body, plain);
        }
      },
      {},
      { ...FILES, "docs/sized.md": item(100) },
    );
  });

  it("does not compress a small body even when gzip is accepted", async () => {
    await onSite(async (s) => {
      const paths = ["/docs/tiny.json", "/api/content.json?type=faq", "/nope"];
      for (const path of paths) {
        const plain = await bytes(await s.request(path));
        assert.ok(plain.length <= 1024, `${path} is at most 1 KiB (${plain.length})`);
        const response = await s.request(path, { headers: { "Accept-Encoding": "gzip, br" } });
        assert.equal(response.headers.get("content-encoding"), null, path);
        assert.deepEqual(await bytes(response), plain);
      }
    });
  });
});

describe("headers on every response", () => {
  it("sends X-Content-Type-Options: nosniff on successes, 304s, errors and preflights", async () => {
    await onSite(async (s) => {
      const etag = (await s.request("/sitemap.xml")).headers.get("etag")!;
      const cases: [string, RequestInit | undefined][] = [
        ...ROUTES.map((path): [string, RequestInit | undefined] => [path, undefined]),
        ["/api/content.json", { headers: { "Accept-Encoding": "gzip" } }],
        ["/sitemap.xml", { headers: { "If-None-Match": etag } }],
        ["/api/content.json?year=26", undefined],
        ["/docs/none.json", undefined],
        ["/sitemap.xml", { method: "PATCH" }],
        ["/sitemap.xml", { method: "OPTIONS" }],
        [`/${"x".repeat(8200)}`, undefined],
      ];
      for (const [path, init] of cases) {
        const response = await s.request(path, init);
        assert.equal(
          response.headers.get("x-content-type-options"),
          "nosniff",
          `${init?.method ?? "GET"} ${path.slice(0, 40)} ${response.status}`,
        );
        await response.arrayBuffer();
      }
    });
  });
});

describe("errors", () => {
  it("answers a bad query with a 400 problem naming the parameter", async () => {
    await onSite(async (s) => {
      const response = await s.request("/api/content.json?limit=abc");
      assert.equal(response.status, 400);
      assert.equal(response.headers.get("content-type"), PROBLEM);
      assert.deepEqual(JSON.parse(await response.text()), {
        type: "about:blank",
        title: "Bad Request",
        status: 400,
        detail: 'limit must be an integer from 1 to 10000, got "abc"',
      });
    });
  });

  it("answers unknown paths and items with a 404 problem", async () => {
    await onSite(async (s) => {
      // `/` is the index of routes (SPEC 9 decisions); `/api` and `/api/` are nothing.
      for (const path of ["/nope", "/docs/missing.json", "/unknown/intro.json", "/api/", "/api"]) {
        const response = await s.request(path);
        const detail = await assertProblem(response, 404, "Not Found");
        assert.ok(!detail.includes("\n"), detail);
      }
    });
  });

  it("answers a URL over 8192 characters with a 414 problem, and one of 8192 normally", async () => {
    await onSite(async (s) => {
      const pad = (length: number) => {
        const prefix = `${ORIGIN}/docs/`;
        return `${prefix}${"a".repeat(length - prefix.length - ".json".length)}.json`;
      };
      const at = await s.api.fetch(new Request(pad(8192)));
      assert.equal(pad(8192).length, 8192);
      await assertProblem(at, 404, "Not Found");
      const over = await s.api.fetch(new Request(pad(8193)));
      await assertProblem(over, 414, "URI Too Long");
      const query = await s.request(`/api/content.json?search=${"b".repeat(10000)}`);
      await assertProblem(query, 414, "URI Too Long");
    });
  });

  it("answers with problem documents that caches do not keep", async () => {
    await onSite(async (s) => {
      for (const path of ["/api/content.json?limit=0", "/nope"]) {
        const response = await s.request(path);
        assert.equal(response.headers.get("cache-control"), "no-store", path);
        assert.equal(response.headers.get("etag"), null, path);
        await response.arrayBuffer();
      }
    });
  });

  it("answers a 500 without a stack trace or file path, and logs the detail", async () => {
    const secret = "/srv/secret/handler.ts";
    class ThrowingResponse extends Response {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        if ((init?.status ?? 200) === 200) throw new Error(`boom in ${secret}`);
        super(body, init);
      }
    }
    await onSite(async (s) => {
      const response = await s.request("/api/content.json");
      assert.equal(response.status, 500);
      assert.equal(response.headers.get("content-type"), PROBLEM);
      assert.equal(response.headers.get("access-control-allow-origin"), "*");
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      const text = await response.text();
      const body = JSON.parse(text);
      assert.deepEqual({ ...body, detail: "" }, {
        type: "about:blank",
        title: "Internal Server Error",
        status: 500,
        detail: "",
      });
      assert.ok(body.detail.length > 0);
      assert.ok(!text.includes("/"), `no path in ${text}`);
      assert.ok(!/\bat\s+\S+\s*\(|\n\s*at /.test(text), `no stack in ${text}`);
      assert.ok(!text.includes("boom") && !text.includes("secret") && !text.includes(".ts"));
      const errors = s.log.lines.filter((line) => line.level === "error");
      assert.equal(errors.length, 1);
      assert.ok(errors[0].message.includes(`boom in ${secret}`), errors[0].message);
      // Other statuses are built with the same class and still work.
      const missing = await s.request("/nope");
      await assertProblem(missing, 404, "Not Found");
    }, { tuning: { Response: ThrowingResponse } });
  });
});

describe("revalidation across encodings", () => {
  it("answers 304 to an identity request that sends the gzip variant's ETag, and back", async () => {
    const s = await site({
      "docs/a.md": md({ title: "A" }, LONG.repeat(20)),
      "docs/b.md": md({ title: "B" }, LONG.repeat(20)),
    });
    try {
      const gz = await s.request("/api/content.json", { headers: { "Accept-Encoding": "gzip" } });
      assert.equal(gz.headers.get("content-encoding"), "gzip");
      const plain = await s.request("/api/content.json");
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.notEqual(gz.headers.get("etag"), plain.headers.get("etag"));
      const a = await s.request("/api/content.json", {
        headers: { "If-None-Match": gz.headers.get("etag")! },
      });
      assert.equal(a.status, 304);
      const b = await s.request("/api/content.json", {
        headers: { "If-None-Match": plain.headers.get("etag")!, "Accept-Encoding": "gzip" },
      });
      assert.equal(b.status, 304);
      assert.equal(b.headers.get("etag"), gz.headers.get("etag"));
    } finally {
      await s.close();
    }
  });
});

describe("the adapters' handler (answers ready without a promise)", () => {
  it("answers what fetch answers, a cached response without a promise", async () => {
    await onSite(async (s) => {
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Request(ORIGIN + path, { headers });
      for (const path of ROUTES) {
        const first = s.handle(get(path));
        assert.ok(first instanceof Promise, `${path}: the first request is routed`);
        const made = await first;
        const etag = made.headers.get("etag")!;
        const cases: [string, Record<string, string>, number][] = [
          ["GET", {}, 200],
          ["GET", { "if-none-match": etag }, 304],
          ["GET", { "accept-encoding": "gzip" }, 200],
        ];
        for (const [method, headers, status] of cases) {
          const request = () => new Request(ORIGIN + path, { method, headers });
          const viaFetch = await s.api.fetch(request());
          await s.api.fetch(request()); // every variant made and cached
          const now = s.handle(request());
          assert.ok(now instanceof Response, `${path} ${JSON.stringify(headers)}: not cached`);
          assert.equal(now.status, status);
          assert.equal(viaFetch.status, status);
          assert.deepEqual(headerList(now.headers), headerList(viaFetch.headers));
          assert.deepEqual(await bytes(now), await bytes(viaFetch));
        }
        const head = s.handle(new Request(ORIGIN + path, { method: "HEAD" }));
        assert.ok(head instanceof Response);
        assert.equal((await bytes(head)).length, 0);
      }
      // Not cached: another method, an unknown path, a bad query.
      for (
        const request of [
          new Request(ORIGIN + "/api/content.json", { method: "POST" }),
          get("/nope"),
          get("/api/content.json?limit=x"),
        ]
      ) {
        const answer = s.handle(request);
        assert.ok(answer instanceof Promise);
        assert.ok((await answer).status >= 400);
      }
    });
  });
});

describe("cloneResponses (main.ts under Deno and Bun)", () => {
  it("builds each answer's response once, whichever variant was asked for first: repeated requests clone it", async () => {
    let made = 0;
    class CountedResponse extends Response {
      constructor(body?: BodyInit | null, init?: ResponseInit) {
        super(body, init);
        made++;
      }
    }
    await onSite(
      async (s) => {
        // The gzip variant first (routed: its response built), then variants the synchronous path
        // answers: the identity bytes, their 304, and a page's Link in another spelling.
        const first = await s.handle(
          new Request(ORIGIN + "/api/content.json", { headers: { "accept-encoding": "gzip" } }),
        );
        assert.equal(first.headers.get("content-encoding"), "gzip");
        await s.handle(new Request(ORIGIN + "/api/content.json?type=docs&limit=1"));
        const etag = (await s.handle(new Request(ORIGIN + "/api/content.json"))).headers.get(
          "etag",
        )!;
        const asks: [string, Record<string, string>, number][] = [
          ["/api/content.json", {}, 200],
          ["/api/content.json", { "accept-encoding": "gzip" }, 200],
          ["/api/content.json", { "if-none-match": etag }, 304],
          ["/api/content.json?type=docs&limit=1", { "accept-encoding": "gzip" }, 200],
          ["/api/content.json?limit=1&type=docs", {}, 200],
        ];
        for (const [path, headers] of asks) {
          await s.handle(new Request(ORIGIN + path, { headers })); // built here at the latest
          const before = made;
          for (let i = 0; i < 20; i++) {
            const answer = s.handle(new Request(ORIGIN + path, { headers }));
            assert.ok(answer instanceof Response, `${path} ${JSON.stringify(headers)}: ready`);
            assert.equal(answer.status, 200 + (headers["if-none-match"] ? 104 : 0));
            await answer.arrayBuffer();
          }
          assert.equal(made - before, 0, `${path} ${JSON.stringify(headers)}: a new Response each`);
        }
      },
      { tuning: { cloneResponses: true, Response: CountedResponse } },
      {
        "docs/a.md": md({ title: "A" }, LONG.repeat(20)),
        "docs/b.md": md({ title: "B" }, LONG.repeat(20)),
      },
    );
  });

  it("answers every route and variant as a new Response per request would, again and again", async () => {
    const now = () => Date.parse(LAST_MODIFIED);
    await onSite(async (plain) => {
      // A copy of the folder: the same journal, so the feed's cursors are the same too.
      const other = await replicaOf(plain.root, { tuning: { cloneResponses: true }, now });
      await (async (cloned: TestSite) => {
        for (const path of ROUTES) {
          const etag = (await plain.api.fetch(new Request(ORIGIN + path))).headers.get("etag")!;
          const cases: [string, Record<string, string>][] = [
            ["GET", {}],
            ["GET", { "accept-encoding": "gzip" }],
            ["GET", { "if-none-match": etag }],
            ["HEAD", {}],
          ];
          for (const [method, headers] of cases) {
            const request = () => new Request(ORIGIN + path, { method, headers });
            const expected = await plain.api.fetch(request());
            const want = { status: expected.status, headers: headerList(expected.headers) };
            const body = await bytes(expected);
            // Read each answer, leave one unread, then read again: no answer uses up the next.
            for (const read of [true, true, false, true]) {
              const answer = await cloned.handle(request());
              assert.deepEqual(
                { status: answer.status, headers: headerList(answer.headers) },
                want,
                `${method} ${path} ${JSON.stringify(headers)}`,
              );
              if (read) assert.deepEqual(await bytes(answer), body, `${method} ${path}`);
            }
          }
        }
      })(other).finally(() => other.close());
    }, { now });
  });
});
