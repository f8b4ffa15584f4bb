// The bench's bare baseline: `Deno.serve` itself (no srvx, no routing)
// answering fixed bytes, read once from a file, with no header but
// `content-type` (the runtime adds `content-length`, `date` and `vary`), and
// `304` with no header at all when the request has any `If-None-Match`. So
// the ratio against it is everything the feed spends beyond the runtime's
// HTTP server: the srvx shim, routing, lookups, negotiation and the headers
// SPEC 9 asks for (the fixed-bytes server of bench/fixed_server.ts sends
// those). Each answer is a clone of one Response built at start: Deno shares
// the body between clones, where a `new Response(bytes)` a request copies
// the bytes each time (a quarter of the throughput for a 0.7 MB body), and
// a baseline slower than the feed would measure nothing. Deno only.
// Usage: deno run -A bench/bare_server.ts <body file> <content-type>
const [bodyFile, contentType] = Deno.args;
const ok = new Response(await Deno.readFile(bodyFile), {
  headers: { "content-type": contentType },
});
// Deno 2.9's clone() of a Response whose only header is content-type, and whose headers were
// never read, drops that header: reading them once keeps it in every clone.
if (ok.headers.get("content-type") !== contentType) throw new Error("no content-type");
const notModified = new Response(null, { status: 304 });
const server = Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen() {} },
  (request) => request.headers.has("if-none-match") ? notModified.clone() : ok.clone(),
);
console.log(`bare listening on http://127.0.0.1:${server.addr.port} `);
Deno.addSignalListener("SIGTERM", () => Deno.exit(0));
