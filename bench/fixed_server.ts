// The benchmark's baseline: a server in the same runtime and on the same
// srvx shim that answers fixed bytes (read once from a file) with the very
// status line and headers the feed sent for them, and 304 (again with the
// feed's 304 headers) when If-None-Match is the feed's ETag. So the ratio
// against it is what the feed spends beyond its bytes: routing, lookups and
// negotiation, not the headers SPEC 9 asks for.
// Usage: <runtime> bench/fixed_server.ts <body file> <headers.json: { ok, notModified }>
import { readFile } from "node:fs/promises";
import process from "node:process";
import { FastResponse, serve } from "srvx";

const bytes = new Uint8Array(await readFile(process.argv[2]));
const { ok, notModified } = JSON.parse(await readFile(process.argv[3], "utf8")) as {
  ok: Record<string, string>;
  notModified: Record<string, string>;
};
const etag = ok.etag;
// Sent the way main.ts sends the feed's bytes: clones of one built Response
// where the runtime shares the body between clones (Deno, Bun), a new
// FastResponse per request on Node.
const built = "Deno" in globalThis || "Bun" in globalThis
  ? {
    ok: new FastResponse(bytes, { headers: ok }),
    notModified: new FastResponse(null, { status: 304, headers: notModified }),
  }
  : undefined;
const server = serve({
  port: 0,
  hostname: "127.0.0.1",
  silent: true,
  gracefulShutdown: false,
  bun: { development: false },
  fetch(request) {
    if (request.headers.get("if-none-match") === etag) {
      return built?.notModified.clone() ??
        new FastResponse(null, { status: 304, headers: notModified });
    }
    return built?.ok.clone() ?? new FastResponse(bytes, { headers: ok });
  },
});
await server.ready();
console.log(`fixed listening on ${server.url} `);
process.on("SIGTERM", () => process.exit(0));
