// The packed package (SPEC 15): `npm pack` builds it (tsc, through
// `prepack`), a fresh project installs the tarball and nothing else, and
// there `import { createContentApi } from "content-feed"` serves under Node
// 24, Bun and Deno, and `npx content-feed check` and `serve` work. It runs
// once per `npm test` (under Node's runner: the other runners skip it), as
// it packs and installs a package.
import { after, before, describe, it } from "node:test";
import process from "node:process";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { connect } from "node:net";
import { join } from "node:path";
import { LONG, md, writeSite } from "./helpers.ts";
import { servingUrl } from "../bench/servers.ts";
import { OWN_RUNTIME, ROOT } from "./server_helpers.ts";

const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);
const SKIP = OWN_RUNTIME !== "node"
  ? "the packed package is tested once, under Node's test runner (npm run test:node)"
  : false;

/** What a user's script does with the package: load a site, answer the feed. */
const SCRIPT = `import { createContentApi } from "content-feed";
const api = await createContentApi({ config: process.argv[2] });
const response = await api.fetch(new Request("http://localhost/api/content.json"));
const feed = await response.json();
console.log(JSON.stringify({ status: response.status, count: feed.meta.count }));
api.close();
`;

/** What a pipeline does with the package's client: sync a mirror, a page at a time. */
const CLIENT_SCRIPT = `import { createContentApi } from "content-feed";
import { FeedClient } from "content-feed/client";
const api = await createContentApi({ config: process.argv[2] });
const client = new FeedClient("http://localhost/", { fetch: api.fetch });
const ids = [];
let batches = 0, reset = false;
for await (const batch of client.changes({ limit: 1, include: ["body"] })) {
  batches++;
  reset ||= batch.reset;
  ids.push(...batch.upserts.map((item) => item.id));
}
console.log(JSON.stringify({ ids: ids.sort(), batches, reset }));
api.close();
`;

describe("the packed npm package", { skip: SKIP, timeout: 300_000 }, () => {
  let work = "";
  let project = "";
  let site = "";
  before(async () => {
    work = await mkdtemp(join(tmpdir(), "content-feed-pack-"));
    // npm pack runs prepack: the TypeScript compiler builds dist/.
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", work], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim().split("\n").pop()!;
    project = join(work, "project");
    site = await writeSite({
      "services.yaml": "parameters:\n  service.content.config:\n    plugins: { docs: ~, api: ~ }\n",
      "docs/a.md": md({ title: "A" }, LONG),
      "docs/b.md": md({ title: "B" }, LONG),
    });
    await mkdir(project);
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "a-site", private: true, type: "module" }),
    );
    await writeFile(join(project, "serve.mjs"), SCRIPT);
    await writeFile(join(project, "client.mjs"), CLIENT_SCRIPT);
    // Nothing but the tarball: its dependencies come from the registry (or npm's cache).
    execFileSync(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", join(work, packed)],
      { cwd: project, stdio: "ignore" },
    );
  });
  after(async () => {
    if (work) await rm(work, { recursive: true, force: true });
    if (site) await rm(site, { recursive: true, force: true });
  });

  it("holds the compiled modules with their types, the command, and no TypeScript source", async () => {
    const installed = join(project, "node_modules", "content-feed");
    const manifest = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
    assert.equal(manifest.private, undefined);
    assert.equal(manifest.bin["content-feed"], "dist/cli.js");
    assert.ok(existsSync(join(installed, "dist", "mod.js")));
    assert.ok(existsSync(join(installed, "dist", "client.js")));
    assert.ok(existsSync(join(installed, "dist", "client.d.ts")));
    assert.deepEqual(manifest.exports["./client"], {
      types: "./dist/client.d.ts",
      default: "./dist/client.js",
    });
    assert.ok(existsSync(join(installed, "dist", "mod.d.ts")));
    assert.ok(existsSync(join(installed, "dist", "src", "pipeline", "read_worker.js")));
    assert.ok(!existsSync(join(installed, "src")), "no TypeScript source");
    assert.ok(!existsSync(join(installed, "tests")));
    const js = await readFile(join(installed, "dist", "src", "http", "handler.js"), "utf8");
    assert.ok(
      !/^\s*(?:import|export)\b[^\n]*from "\.[^"]*\.ts"/m.test(js),
      "relative imports point at .js files",
    );
    assert.match(js, /^import .* from "\.\/answer_store\.js";$/m);
    assert.equal(
      manifest.optionalDependencies,
      undefined,
      "no Node binary for the user to download",
    );
    assert.equal(manifest.allowScripts, undefined, "the contributors' approvals stay in the clone");
    // The runtime dependencies are exactly what the code imports.
    const imported = new Set<string>();
    const walk = async (folder: string) => {
      for (const entry of await readdir(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith(".js")) {
          const text = await readFile(path, "utf8");
          const statics = text.matchAll(/^\s*(?:import|export)\b[^\n]*?from\s*"([^"]+)"/gm);
          const dynamics = text.matchAll(/^\s*(?:const .*=\s*)?(?:await\s+)?import\("([^"]+)"\)/gm);
          const inline = text.matchAll(/\bimport\("([^"]+)"\),?$/gm);
          for (const [, specifier] of [...statics, ...dynamics, ...inline]) {
            const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(specifier)![1];
            if (!specifier.startsWith(".") && !specifier.startsWith("node:")) imported.add(name);
          }
        }
      }
    };
    await walk(join(installed, "dist"));
    assert.deepEqual([...imported].sort(), Object.keys(manifest.dependencies).sort());
  });

  for (
    const [runtime, command] of [
      ["Node 24", [bin("node"), "serve.mjs"]],
      ["Bun", [bin("bun"), "serve.mjs"]],
      ["Deno", [bin("deno"), "run", "-A", "serve.mjs"]],
    ] as const
  ) {
    it(`import { createContentApi } from "content-feed" serves under ${runtime}`, () => {
      const run = spawnSync(command[0], [...command.slice(1), join(site, "services.yaml")], {
        cwd: project,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout.trim().split("\n").pop()!), {
        status: 200,
        count: 2,
      });
    });
  }

  for (
    const [runtime, command] of [
      ["Node 24", [bin("node"), "client.mjs"]],
      ["Bun", [bin("bun"), "client.mjs"]],
      ["Deno", [bin("deno"), "run", "-A", "client.mjs"]],
    ] as const
  ) {
    it(`import { FeedClient } from "content-feed/client" syncs under ${runtime}`, () => {
      const run = spawnSync(command[0], [...command.slice(1), join(site, "services.yaml")], {
        cwd: project,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, DENO_NO_UPDATE_CHECK: "1" },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout.trim().split("\n").pop()!), {
        ids: ["docs_doc_a", "docs_doc_b"],
        batches: 2,
        reset: false,
      });
    });
  }

  it("gives a TypeScript project its types", async () => {
    await writeFile(
      join(project, "typed.ts"),
      `import { createContentApi, type ContentApi, parseQuery, toNodeListener } from "content-feed";
const api: ContentApi = await createContentApi({ config: "site.yaml" });
// A node:http listener, typed without Node's own types (this project has none).
export const listener = toNodeListener(api, { prefix: "/feed" });
const items: number = api.index.items.length;
const parsed = parseQuery(new URLSearchParams("limit=2"), api.index);
export const limit: number | undefined = parsed.filters?.limit;
export { items };
`,
    );
    await writeFile(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          strict: true,
          noEmit: true,
          lib: ["es2023", "dom"],
          types: [],
        },
        files: ["typed.ts"],
      }),
    );
    const run = spawnSync(bin("tsc"), ["-p", "."], { cwd: project, encoding: "utf8" });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  it("gives a TypeScript project the client's types (content-feed/client: web types only)", async () => {
    await writeFile(
      join(project, "typed_client.ts"),
      `import { type ChangeBatch, FeedClient, FeedError } from "content-feed/client";
const client = new FeedClient("http://localhost:8000", {
  fetch: (request: Request) => fetch(request),
  headers: { authorization: "Bearer x" },
});
export const titles: string[] = [];
try {
  for await (const batch of client.changes({ limit: 10, include: ["body"] })) {
    const first: ChangeBatch = batch;
    titles.push(...first.upserts.map((item) => item.title + (item.body ?? "")));
  }
} catch (error) {
  if (error instanceof FeedError) titles.push(String(error.status));
}
export const manifest = await client.manifest();
`,
    );
    // No Node types: the client needs nothing but the web's (lib "dom").
    await writeFile(
      join(project, "tsconfig.client.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          strict: true,
          noEmit: true,
          lib: ["es2023", "dom"],
          types: [],
        },
        files: ["typed_client.ts"],
      }),
    );
    const run = spawnSync(bin("tsc"), ["-p", "tsconfig.client.json"], {
      cwd: project,
      encoding: "utf8",
    });
    assert.equal(run.status, 0, run.stdout + run.stderr);
  });

  it("says in one line that an older Node cannot run it", (t) => {
    // The machine's own `node` outside node_modules/.bin (Node 20 where CI runs), when older.
    const PATH = (process.env.PATH ?? "").split(":").filter((dir) => !dir.includes("node_modules"))
      .join(":");
    const version = spawnSync("node", ["--version"], { encoding: "utf8", env: { PATH } });
    const [major, minor] = (version.stdout ?? "").slice(1).split(".").map(Number);
    if (version.status !== 0 || major > 22 || (major === 22 && minor >= 18)) {
      return t.skip("no Node older than 22.18 on the PATH");
    }
    const cli = join(project, "node_modules", "content-feed", "dist", "cli.js");
    const run = spawnSync("node", [cli, "check"], {
      cwd: project,
      encoding: "utf8",
      env: { PATH },
    });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, "");
    assert.equal(
      run.stderr,
      `content-feed: needs Node 22.18 or later, Deno or Bun; this is Node ${
        version.stdout.trim().slice(1)
      }\n`,
    );
  });

  it("docs/deploying.md's edge entry point runs from the project with exactly the permission it states", async () => {
    const guide = await readFile(join(ROOT, "docs", "deploying.md"), "utf8");
    const example = await readFile(join(ROOT, "examples", "deno_deploy.ts"), "utf8");
    // The guide shows the example's code (its comment aside) and the one command that runs it.
    const code = example.replace(/^(?:\/\/.*\n)+/, "");
    const shown = /\n {3}```ts\n((?: {3}.*\n|\n)*?) {3}```\n/.exec(guide)?.[1].replace(
      /^ {3}/gm,
      "",
    );
    assert.equal(shown, code, "docs/deploying.md shows examples/deno_deploy.ts");
    const command = /^ {3}deno serve((?: --allow-[a-z-]+(?:=\S+)?)*) main\.ts$/m.exec(guide);
    assert.ok(command, "docs/deploying.md names the command that runs main.ts");
    const permissions = command[1].trim().split(" ");
    assert.deepEqual(permissions, ["--allow-env=BASE_URL"]);
    // Step 1: the snapshot, written by the installed command (under Node 24).
    const env = {
      ...process.env,
      PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
      DENO_NO_UPDATE_CHECK: "1",
    };
    const snapshot = spawnSync("npx", [
      "content-feed",
      "snapshot",
      "snapshot.json",
      "--config",
      join(site, "services.yaml"),
    ], { cwd: project, encoding: "utf8", timeout: 60_000, env });
    assert.equal(snapshot.status, 0, snapshot.stderr);
    await writeFile(join(project, "main.ts"), example);
    /** Runs `deno serve` in the project with these permissions; its answer to one request. */
    const serveWith = async (flags: readonly string[], vars: Record<string, string>) => {
      const deno = spawn(
        bin("deno"),
        ["serve", ...flags, "--host", "127.0.0.1", "--port", "0", "main.ts"],
        { cwd: project, env: { ...env, ...vars }, stdio: ["ignore", "pipe", "pipe"] },
      );
      const exited = new Promise((resolve) => deno.on("exit", resolve));
      let out = "";
      try {
        const url = await new Promise<string | undefined>((resolve) => {
          const seen = (chunk: Buffer) => {
            out += chunk;
            const match = /Listening on (http:\/\/[^\s]+?)\/?\s/.exec(out);
            if (match) resolve(match[1]);
          };
          deno.stdout!.on("data", seen);
          deno.stderr!.on("data", seen);
          deno.on("exit", () => resolve(undefined));
        });
        if (url === undefined) return { out };
        const response = await fetch(`${url}/api/content.json?limit=1`);
        return { out, status: response.status, body: await response.json() };
      } finally {
        if (deno.exitCode === null) deno.kill("SIGTERM");
        await exited;
        deno.stdout!.destroy();
        deno.stderr!.destroy();
      }
    };
    const served = await serveWith(permissions, { BASE_URL: "https://edge.example" });
    assert.equal(served.status, 200, served.out);
    assert.equal(served.body.meta.total, 2);
    assert.ok(served.body.data[0].link.startsWith("https://edge.example/"), "links on BASE_URL");
    // The permission is needed: the guide states no more than it takes.
    const without = await serveWith([], { BASE_URL: "https://edge.example" });
    assert.equal(without.status, undefined, "it does not start without --allow-env=BASE_URL");
    assert.match(without.out, /Requires env access to "BASE_URL"/);
  });

  it("npx content-feed check and serve work", async () => {
    const env = {
      ...process.env,
      PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
    };
    const check = spawnSync("npx", [
      "content-feed",
      "check",
      "--config",
      join(site, "services.yaml"),
    ], {
      cwd: project,
      encoding: "utf8",
      timeout: 60_000,
      env,
    });
    assert.equal(check.status, 0, check.stderr);
    assert.match(check.stdout, /^docs\s+docs\s+2\s+2\s+2\s+-$/m);
    // npx runs the command through `sh -c`, and passes SIGTERM to that shell
    // alone, which ends without passing it on: the server sees its shell go
    // and stops as on SIGTERM. Its own process group: what is left shows there.
    const serve = startIn(
      ["npx", "content-feed", "serve", "--port", "0", "--host", "127.0.0.1"],
      env,
    );
    try {
      const url = await serve.listening;
      const feed = await (await fetch(`${url}/api/content.json`)).json();
      assert.equal(feed.meta.count, 2);
      process.kill(serve.child.pid!, "SIGTERM"); // npx alone, as a process manager does
      await serve.exited;
      // The server stops once its shell is gone; its output ends when it does.
      assert.match(await serve.output, /content-feed stopped \(its npm shell is gone\)/);
      await untilGone(serve.child.pid!);
      assert.equal(await refused(url), true, "nothing is left listening");
    } finally {
      if (groupAlive(serve.child.pid!)) process.kill(-serve.child.pid!, "SIGKILL");
    }
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`the installed content-feed command stops on ${signal} and exits 0`, async () => {
      const command = join(project, "node_modules", ".bin", "content-feed");
      const serve = startIn([command, "serve", "--port", "0", "--host", "127.0.0.1"], {
        ...process.env,
        PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`,
      });
      try {
        const url = await serve.listening;
        assert.equal((await fetch(`${url}/api/health`)).status, 200);
        process.kill(serve.child.pid!, signal);
        assert.equal(await serve.exited, 0);
        assert.match(await serve.output, new RegExp(`content-feed stopped \\(${signal}\\)`));
        assert.equal(groupAlive(serve.child.pid!), false, "the command started nothing else");
        assert.equal(await refused(url), true);
      } finally {
        if (groupAlive(serve.child.pid!)) process.kill(-serve.child.pid!, "SIGKILL");
      }
    });
  }

  /** Starts a command in the project, in a process group of its own, serving the test site. */
  function startIn(command: string[], env: NodeJS.ProcessEnv) {
    const child = spawn(command[0], command.slice(1), {
      cwd: project,
      env: { ...env, CONTENT_CONFIG: join(site, "services.yaml") },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let out = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    // Every holder of the pipe (the server too) has closed it.
    const output = new Promise<string>((resolve) => child.stdout!.on("end", () => resolve(out)));
    child.stderr!.resume();
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (chunk) => {
        out += chunk;
        const match = servingUrl(out);
        if (match) resolve(match);
      });
      exited.then((code) => reject(new Error(`${command.join(" ")} exited ${code}: ${out}`)));
    });
    return { child, exited, output, listening };
  }
});

/** Whether any process of a process group is alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until no process of a group is left, asking at most 400 times. */
async function untilGone(pgid: number): Promise<void> {
  for (let i = 0; i < 400 && groupAlive(pgid); i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(groupAlive(pgid), false, "a process of the group is still running");
}

/** Whether a new connection to `origin` is refused. */
function refused(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.on("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.on("error", () => resolve(true));
  });
}
