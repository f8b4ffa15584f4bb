// Mounting the feed in a Hono app under /content.
// Run: node_modules/.bin/deno run -A examples/hono.ts   (or bun / node, Node 24)
// then: curl localhost:8000/content/api/content.json
import { Hono } from "hono";
import process from "node:process";
import { serve } from "srvx";
import { createContentApi } from "../mod.ts";

const port = Number(process.env.PORT || 8000);

/** The Hono app: its own routes, and the feed under /content. */
export async function createApp(baseUrl = `http://localhost:${port}/content`): Promise<Hono> {
  const content = await createContentApi({ config: "content/services.yaml", baseUrl });
  const app = new Hono();
  app.get("/", (c) => c.text("Hello from Hono; the feed is at /content/api/content.json"));
  // Hono strips "/content" before calling the handler; the feed routes it back
  // under the base URL's path, so links keep the prefix.
  app.mount("/content", content.fetch);
  return app;
}

if (import.meta.main) {
  const app = await createApp();
  const server = serve({ fetch: app.fetch, port, silent: true });
  await server.ready();
  console.log(`Hono example on ${server.url} · feed at ${server.url}content/api/content.json`);
}
