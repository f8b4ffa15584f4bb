// `deno task chaos`: convergence under load (SPEC 10). Starts the server under
// a runtime (default Deno) on a generated site, drives it with concurrent
// clients (autocannon) while random file and folder operations run (files
// added, edited, removed, renamed; folders made, renamed, removed, replaced
// by files; plugin folders renamed away and back; files replaced by FIFOs),
// then compares the live feed, 2 s after the last operation, with a fresh
// start's on the same files. Exits 1 on any failed request (an error, a
// timeout or a 5xx) or any difference. Targets 127.0.0.1 only.
// Usage: deno task chaos [--runtime deno|bun|node] [--files 2000] [--seconds 10] [--connections 16]
import autocannon from "autocannon";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createContentApi } from "../mod.ts";
import { cleanChaos, comparable, runChaos } from "./chaos_ops.ts";
import { parseArgs, runtimeCommand, startServer, stopServer } from "./servers.ts";
import { generateSite } from "./site.ts";

const args = parseArgs();
const runtime = args.get("runtime") ?? "deno";
const fileCount = Number(args.get("files") ?? 2000);
const seconds = Number(args.get("seconds") ?? 10);
const connections = Number(args.get("connections") ?? 16);

const site = await mkdtemp(join(tmpdir(), "content-feed-chaos-"));
await generateSite(site, fileCount, 11);
const config = join(site, "services.yaml");
const server = await startServer(runtimeCommand(runtime, "main.ts"), { CONTENT_CONFIG: config });
const url = server.url;

const feed = await (await fetch(`${url}/api/content.json?type=docs&limit=20`)).json();
const itemPaths = feed.data.map((item: { link: string }) => new URL(item.link).pathname);
const load = autocannon({
  url,
  connections,
  duration: seconds,
  requests: [
    { path: "/api/content.json" },
    { path: "/api/content.json?type=docs&limit=20&page=2" },
    { path: "/api/content.json?search=lorem&limit=5" },
    ...itemPaths.slice(0, 10).map((path: string) => ({ path })),
    { path: "/sitemap.xml" },
  ],
  headers: { "accept-encoding": "gzip" },
});
const report = await runChaos(site, seconds * 1000, { seed: 5, pause: 5 });
const result = await load;
const stopped = Date.now();

// Within 2 s of the last operation, the live feed must equal a fresh start's.
const quiet = { info() {}, warn() {}, error: console.error };
const freshApi = await createContentApi({ config, logger: quiet });
const fresh = comparable(
  await (await freshApi.fetch(new Request(`${url}/api/content.json`))).text(),
);
let live = "";
let converged = -1;
while (Date.now() - stopped < 2000) {
  live = comparable(await (await fetch(`${url}/api/content.json`)).text());
  if (live === fresh) {
    converged = Date.now() - stopped;
    break;
  }
  await new Promise((resolve) => setTimeout(resolve, 25));
}
const ids = (text: string) =>
  new Set(
    JSON.parse(text).data.map((i: { id: string; checksum: string }) => `${i.id} ${i.checksum}`),
  );
const [liveIds, freshIds] = [ids(live), ids(fresh)];
const missing = [...freshIds].filter((id) => !liveIds.has(id));
const extra = [...liveIds].filter((id) => !freshIds.has(id));
await stopServer(server);
await rm(site, { recursive: true, force: true });
await cleanChaos(site);

const failed = result.errors + result.timeouts + result["5xx"];
console.log(
  `chaos under load: ${runtime}, ${fileCount} files, ${connections} connections, ${seconds} s, ${report.operations} operations`,
);
console.log(`operations ${JSON.stringify(report.kinds)}`);
console.log(
  `requests ${result.requests.total}  errors ${result.errors}  timeouts ${result.timeouts}  5xx ${
    result["5xx"]
  }  4xx ${result["4xx"]} (items removed on purpose)`,
);
console.log(
  converged >= 0
    ? `converged ${converged} ms after the last operation: the live feed equals a fresh start's (${freshIds.size} items)`
    : `NOT converged within 2 s: ${missing.length} items missing, ${extra.length} extra; bodies ${
      live === fresh ? "equal" : "differ"
    }`,
);
if (server.stderr().match(/\berror\b/)) console.log(`server stderr errors:\n${server.stderr()}`);
process.exit(failed === 0 && converged >= 0 ? 0 : 1);
