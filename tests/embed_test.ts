// createContentApi embeds in other fetch-based servers: as an object with
// fetch (export default), in Hono under a prefix, in an itty router, and with
// the configuration given as an object instead of a file.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Hono } from "hono";
import { Router } from "itty-router";
import { createContentApi } from "../mod.ts";
import { createApp } from "../examples/hono.ts";
import { LONG, md, memoryLogger, removeSite, writeSite } from "./helpers.ts";

const PLUGINS = { docs: null, blog: null, api: null, sitemap: null };

describe("embedding", () => {
  it("takes the configuration as an object, path resolved against the working folder", async () => {
    const root = await writeSite({ "docs/intro.md": md({ title: "Intro" }, LONG) });
    try {
      const api = await createContentApi({
        config: { url: "https://example.com", path: root, plugins: PLUGINS },
        logger: memoryLogger(),
      });
      const response = await api.fetch(new Request("http://x/api/content.json"));
      const body = await response.json();
      assert.deepEqual(body.data.map((i: { link: string }) => i.link), [
        "https://example.com/docs/intro.json",
      ]);
      assert.equal(api.config?.root, root);
    } finally {
      await removeSite(root);
    }
  });

  it("serves under a path prefix, with links under it, in Hono's app.mount", async () => {
    const root = await writeSite({ "docs/intro.md": md({ title: "Intro" }, LONG) });
    try {
      const api = await createContentApi({
        config: { url: "https://example.com/content", path: root, plugins: PLUGINS },
        logger: memoryLogger(),
      });
      const app = new Hono();
      app.get("/", (c) => c.text("home"));
      app.mount("/content", api.fetch);
      const feed = await app.fetch(new Request("https://example.com/content/api/content.json"));
      assert.equal(feed.status, 200);
      const body = await feed.json();
      assert.equal(body.meta.url, "https://example.com/content/");
      assert.equal(body.data[0].link, "https://example.com/content/docs/intro.json");
      const item = await app.fetch(new Request(body.data[0].link));
      assert.equal(item.status, 200);
      assert.equal((await item.json()).id, "docs_doc_intro");
      const home = await app.fetch(new Request("https://example.com/"));
      assert.equal(await home.text(), "home");
      // Called directly (no host stripping the prefix), the prefixed path works too.
      const direct = await api.fetch(new Request("https://example.com/content/sitemap.xml"));
      assert.equal(direct.status, 200);
      assert.match(await direct.text(), /<loc>https:\/\/example\.com\/content\/docs\/intro<\/loc>/);
    } finally {
      await removeSite(root);
    }
  });

  it("runs the shipped Hono example: the sample site under /content", async () => {
    const app = await createApp("http://localhost:8000/content");
    const response = await app.fetch(
      new Request("http://localhost:8000/content/api/content.json?limit=1"),
    );
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.meta.url, "http://localhost:8000/content/");
    assert.match(body.data[0].link, /^http:\/\/localhost:8000\/content\/[a-z]+\/.+\.json$/);
  });

  it("answers inside an itty router as a catch-all handler", async () => {
    const root = await writeSite({ "blog/2026-01-02-hi.md": md({ title: "Hi" }, LONG) });
    try {
      const api = await createContentApi({
        config: { url: "https://example.com", path: root, plugins: PLUGINS },
        logger: memoryLogger(),
      });
      const router = Router();
      router.get("/health", () => new Response("ok"));
      router.all("*", (request: Request) => api.fetch(request));
      const health = await router.fetch(new Request("https://example.com/health"));
      assert.equal(await health.text(), "ok");
      const feed = await router.fetch(new Request("https://example.com/api/content.json"));
      assert.deepEqual((await feed.json()).data.map((i: { id: string }) => i.id), [
        "blog_post_2026-01-02-hi",
      ]);
    } finally {
      await removeSite(root);
    }
  });

  it("has the shape of an `export default { fetch }` module", async () => {
    const root = await writeSite({
      "services.yaml": "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
      "docs/intro.md": md({ title: "Intro" }, LONG),
    });
    try {
      const module = {
        default: await createContentApi({
          config: join(root, "services.yaml"),
          logger: memoryLogger(),
        }),
      };
      const handler: (request: Request) => Promise<Response> = module.default.fetch;
      const response = await handler(new Request("http://localhost:9999/api/content.json"));
      // No url and no BASE_URL: the request's origin is the base.
      assert.equal((await response.json()).data[0].link, "http://localhost:9999/docs/intro.json");
    } finally {
      await removeSite(root);
    }
  });
});
