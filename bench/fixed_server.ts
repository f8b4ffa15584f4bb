// The benchmark's baseline: a server in the same runtime and on the same
// srvx shim that answers fixed bytes (read once from a file) with a fixed
// ETag, and 304 when If-None-Match matches. Usage: <runtime> bench/fixed_server.ts <file>
import { readFile } from "node:fs/promises";
import process from "node:process";
import { FastResponse, serve } from "srvx";

const bytes = new Uint8Array(await readFile(process.argv[2]));
const etag = '"fixed"';
const server = serve({
  port: 0,
  hostname: "127.0.0.1",
  silent: true,
  gracefulShutdown: false,
  bun: { development: false },
  fetch(request) {
    if (request.headers.get("if-none-match") === etag) {
      return new FastResponse(null, { status: 304, headers: { etag } });
    }
    return new FastResponse(bytes, {
      headers: { "content-type": "application/json; charset=utf-8", etag },
    });
  },
});
await server.ready();
console.log(`fixed listening on ${server.url} `);
process.on("SIGTERM", () => process.exit(0));
