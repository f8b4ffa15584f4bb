// Byte parity of two versions of the project: the same seeded site served by
// the project at a git ref (checked out into a temporary worktree) and by this
// tree, through createContentApi in one process, every route's status,
// headers and body compared (each journal's random id masked). The check of
// a refactor that must not change what is served.
// Usage: node_modules/.bin/node bench/compare_trees.ts <git ref> [--files 400]
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { parseArgs, root } from "./servers.ts";
import { generateSite } from "./site.ts";

const args = parseArgs();
const ref = process.argv[2];
if (!ref || ref.startsWith("--")) {
  console.error("usage: node bench/compare_trees.ts <git ref> [--files 400]");
  process.exit(2);
}
const other = await mkdtemp(join(tmpdir(), "content-feed-compare-"));
const added = spawnSync("git", ["worktree", "add", "-q", "--detach", other, ref], { cwd: root });
if (added.status !== 0) throw new Error(`git worktree add ${ref}: ${added.stderr}`);
await symlink(join(root, "node_modules"), join(other, "node_modules"));
const site = await mkdtemp(join(tmpdir(), "content-feed-compare-site-"));
try {
  await generateSite(site, Number(args.get("files") ?? 400), 7);
  await writeFile(
    join(site, "docs", "awk.md"),
    '---\ntitle: "Awk \\"q\\" é 😀"\ntags: [A, b]\n---\n# H1\n\nText <b>x</b>\n\n## Two {#two}\n\nMore & more.\n\n## Two\n\nAgain.\n',
  );
  await writeFile(
    join(site, "services.yaml"),
    "parameters:\n  service.content.config:\n    url: https://ex.test/base\n    title: Parity\n    description: A site\n" +
      "    plugins: { academy: ~, blog: ~, docs: ~, faq: ~, pages: ~, api: ~, sitemap: ~, llms: ~, feed: ~, mcp: ~ }\n",
  );
  // Each service its own copy: a journal has one writer.
  const copy = `${site}-b`;
  await cp(site, copy, { recursive: true, preserveTimestamps: true });
  const now = () => Date.UTC(2026, 10, 21, 9, 15, 2);
  const quiet = { info() {}, warn() {}, error() {} };
  const start = async (tree: string, folder: string) =>
    (await import(join(tree, "mod.ts"))).createContentApi({
      config: join(folder, "services.yaml"),
      now,
      logger: quiet,
    });
  const a = await start(other, site);
  const b = await start(root, copy);
  const base = "https://ex.test/base";
  const feed = await (await a.fetch(new Request(`${base}/api/content.json`))).json();
  const items: string[] = feed.data.map((item: { link: string }) =>
    item.link.slice(base.length).replace(/\.json$/, "")
  );
  const paths = [
    "/api/content.json",
    "/api/content.json?limit=7&page=3",
    "/api/content.json?type=docs&tag=topic-3",
    "/api/content.json?search=lorem%20deno&limit=5",
    "/api/content.json?include=url,body,text,sections&limit=30",
    "/api/content.json?fields=id,checksum,last_update",
    "/api/content.json?fields=id,title,body&limit=20",
    "/api/content.json?include=body",
    "/api/content.json?sort=-last_update&limit=9",
    "/api/content.json?sort=title&include=url",
    "/api/content.json?since=0&limit=50",
    "/api/content.json?since=0&include=body,sections&limit=20",
    "/api/content.json?since=0&fields=id,url",
    "/api/content.json?limit=abc",
    "/api/content.json?include=nope",
    "/api/content.json?since=zz.9",
    "/sitemap.xml",
    "/api/openapi.json",
    "/llms.txt",
    "/llms-full.txt",
    "/feed.json",
    "/feed.json?page=2&type=blog",
    "/feed.json?limit=3",
    "/nothing",
    "/docs/nope.json",
    "/docs/awk.json?include=url,text,sections",
    "/docs/awk.md",
    "/docs/awk.json?include=bogus",
    ...items.slice(0, 60).flatMap((p) => [`${p}.json`, `${p}.md`, `${p}.json?include=sections`]),
  ];
  // deno-lint-ignore no-explicit-any
  const mask = (text: string, api: any) => text.replaceAll(api.cursor.split(".")[0], "JOURNAL");
  let differences = 0;
  for (const path of paths) {
    const [ra, rb] = await Promise.all([a, b].map((api) => api.fetch(new Request(base + path))));
    const [ta, tb] = [mask(await ra.text(), a), mask(await rb.text(), b)];
    // An ETag is of the bytes, and the bytes hold the journal's id where they hold a cursor.
    const headers = (response: Response, text: string, api: unknown) =>
      [...response.headers].filter(([name]) => name !== "etag" || !text.includes("JOURNAL"))
        .map(([name, value]) => `${name}: ${mask(value, api)}`).join("\n");
    if (ra.status !== rb.status || ta !== tb || headers(ra, ta, a) !== headers(rb, tb, b)) {
      differences++;
      console.log(`differs: ${path} (${ra.status} ${rb.status})`);
    }
  }
  const mcp = async (api: { fetch(r: Request): Promise<Response> }, body: unknown) =>
    (await api.fetch(
      new Request(`${base}/api/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(body),
      }),
    )).text();
  const calls: [string, Record<string, unknown>][] = [
    ["list_content", { limit: 5 }],
    ["search_content", { query: "deno" }],
    ["get_content", { id: "docs_doc_awk" }],
    ["get_content", { link: "/docs/awk" }],
    ["list_tags", {}],
    ["list_changes", { cursor: "0", limit: 3 }],
    ["list_content", { type: "nope" }],
  ];
  for (const [name, args] of calls) {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } };
    if (mask(await mcp(a, body), a) !== mask(await mcp(b, body), b)) {
      differences++;
      console.log(`differs: MCP ${name} ${JSON.stringify(args)}`);
    }
  }
  console.log(
    `${paths.length} routes and ${calls.length} MCP calls: ${differences} differ (${ref} against this tree)`,
  );
  a.close();
  b.close();
  await rm(copy, { recursive: true, force: true });
} finally {
  spawnSync("git", ["worktree", "remove", "--force", other], { cwd: root });
  await rm(site, { recursive: true, force: true });
}
