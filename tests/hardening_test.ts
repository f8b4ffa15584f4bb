// Hardening (SPEC 2, 3, 4, 9, 10, 11): what a careless content author, a
// hostile client or a busy machine can do to a public feed, and what the
// service does instead of failing.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { closeSync, constants, existsSync, openSync } from "node:fs";
import { mkdir, mkdtemp, open, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import net from "node:net";
import { join } from "node:path";
import { createContentApi } from "../mod.ts";
import {
  ALL_PLUGINS,
  configFor,
  eventually,
  LONG,
  md,
  memoryLogger,
  removeSite,
  site,
  type TestSite,
  withSite,
  writeSite,
} from "./helpers.ts";
import { rawRequest, ROOT, type Running, RUNTIMES, startServer } from "./server_helpers.ts";

const GOOD = { "docs/good.md": md({ title: "Good" }, LONG) };

async function feedIds(s: TestSite): Promise<string[]> {
  const { body } = await s.json("/api/content.json");
  return body.data.map((item: { id: string }) => item.id);
}

/**
 * A writer that waits to open the FIFO at `path` (a writer's open waits for
 * a reader) and, once it has, leaves a mark in a folder of its own: whether
 * some reader opened the FIFO is a file, not a time. A request that opened
 * the FIFO for reading is answered only after the writer marked (the read
 * waits for the writer to close); one that never opened it, before.
 * `release` opens the FIFO for reading itself, so the writer marks and ends,
 * and resolves once it has, with whether the mark is there (it always should
 * be then: the check of the check).
 */
async function fifoWriter(path: string): Promise<FifoWriter> {
  const folder = await mkdtemp(join(tmpdir(), "content-feed-fifo-"));
  const mark = join(folder, "opened");
  const writer = spawn("sh", ["-c", 'exec 3>"$1" && : > "$2"', "sh", path, mark], {
    stdio: "ignore",
  });
  const ended = once(writer, "close");
  await once(writer, "spawn");
  return {
    marked: () => existsSync(mark),
    async release() {
      const reader = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
      try {
        await ended;
        return existsSync(mark);
      } finally {
        closeSync(reader);
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

/** What {@link fifoWriter} gives. */
interface FifoWriter {
  /** Whether a reader opened the FIFO, so the writer's open went through. */
  marked(): boolean;
  /** Lets the writer through with a reader of this test's; whether it marked then. */
  release(): Promise<boolean>;
}

/** A front matter of nested aliases that expands to 10^9 nodes from about 600 bytes. */
function aliasBomb(): string {
  const lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x", "x"]'];
  for (let i = 1; i <= 9; i++) {
    const refs = Array.from({ length: 10 }, () => `*a${i - 1}`).join(", ");
    lines.push(`a${i}: &a${i} [${refs}]`);
  }
  lines.push("title: *a9", "tags: *a9");
  return lines.join("\n");
}

/** A services.yaml whose title is the alias bomb. */
const BOMB_CONFIG = `parameters:\n  service.content.config:\n    plugins: { docs: ~ }\n${
  aliasBomb().split("\n").slice(0, 10).map((l) => `    ${l}`).join("\n")
}\n    title: *a9\n`;

describe("hostile front matter (SPEC 4)", () => {
  it("an alias bomb leaves its file out with a warning naming it; everything else serves", async () => {
    await withSite({ ...GOOD, "docs/bomb.md": md(aliasBomb(), LONG) }, {}, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      assert.equal((await s.request("/docs/bomb.json")).status, 404);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /^warning: docs\/bomb\.md: .*alias.*10,000/);
    });
  });

  it("a warning quotes at most 80 characters of an offending value", async () => {
    const long = "x".repeat(100_000);
    const front = `title: ["${long}"]\nauthors: [{a: "${long}"}]\ntime: "${long}"`;
    await withSite({ ...GOOD, "docs/long.md": md(front, LONG) }, {}, async (s) => {
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 3, warnings.join("\n").slice(0, 1000));
      for (const line of warnings) {
        // The file, the key, what was expected, at most 80 characters of the value.
        assert.ok(line.length < 200, `${line.length} characters: ${line.slice(0, 300)}`);
        assert.match(line, /x…/);
      }
      assert.deepEqual((await feedIds(s)).sort(), ["docs_doc_good", "docs_doc_long"]);
    });
  });

  it("a year outside 0001–9999 is not a date: a warning, and the default", async () => {
    const files = {
      "docs/2026-01-02-zero.md": md("date: 0000-01-01", LONG),
      "docs/2026-01-03-far.md": md("date: 300000000000", LONG),
      "docs/first.md": md("date: 0001-01-01", LONG),
    };
    await withSite(files, {}, async (s) => {
      const { body } = await s.json("/api/content.json");
      const dates = Object.fromEntries(
        body.data.map((item: { uri: string; date: string }) => [item.uri, item.date]),
      );
      assert.deepEqual(dates, {
        "2026-01-02-zero": "2026-01-02",
        "2026-01-03-far": "2026-01-03",
        "first": "0001-01-01",
      });
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 2, warnings.join("\n"));
      assert.ok(warnings.every((w) => /'date'/.test(w)), warnings.join("\n"));
    });
  });

  it("fails closed: a draft that takes a published file's slug never hides it (SPEC 3)", async () => {
    const files = {
      "docs/a-draft.md": md({ title: "Draft", slug: "guide", draft: true }, LONG),
      "docs/b-typo.md": md("title: Typo\nslug: guide\ndraft: yes", LONG),
      "docs/guide.md": md({ title: "Published" }, LONG),
    };
    await withSite(files, {}, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_guide"]);
      const { body } = await s.json("/docs/guide.json");
      assert.equal(body.title, "Published");
      const clashes = s.log.warnings().filter((w) => /same uri/.test(w));
      assert.equal(clashes.length, 2, s.log.warnings().join("\n"));
    });
  });
});

describe("files that are not regular files, or too large (SPEC 3)", () => {
  it("a FIFO is named in a warning and never opened; everything else serves", async () => {
    await withSite(GOOD, {
      prepare: async (root) => {
        await mkdir(join(root, "docs"), { recursive: true });
        execFileSync("mkfifo", [join(root, "docs/pipe.md")]);
      },
    }, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(warnings[0], /docs\/pipe\.md: not a regular file \(a FIFO\); left out/);
    });
  });

  it("a file that became a FIFO is never opened by a request: each is answered while a writer waits", async () => {
    await withSite({ ...GOOD, "docs/a.md": md({ title: "A" }, LONG) }, {}, async (s) => {
      assert.deepEqual((await feedIds(s)).sort(), ["docs_doc_a", "docs_doc_good"]);
      const path = join(s.root, "docs/a.md");
      await rm(path);
      execFileSync("mkfifo", [path]);
      const writer = await fifoWriter(path);
      const statuses: number[] = [];
      let released = false;
      try {
        for (const asked of ["/docs/a.json", "/docs/a.md", "/api/content.json?include=body"]) {
          const response = await s.request(asked);
          await response.arrayBuffer();
          statuses.push(response.status);
          assert.ok(!writer.marked(), `${asked} opened the FIFO: a writer found a reader`);
        }
      } finally {
        released = await writer.release();
      }
      assert.ok(released, "the writer marks once a reader comes");
      // The item is gone (404), or its bytes are (503); the feed answers without them, or a 503.
      assert.ok([404, 503].includes(statuses[0]), `status ${statuses[0]}`);
      assert.ok([404, 503].includes(statuses[1]), `status ${statuses[1]}`);
      assert.ok([200, 503].includes(statuses[2]), `status ${statuses[2]}`);
    });
  });

  it("a character device is never read", async (t) => {
    let made = true;
    await withSite(GOOD, {
      prepare: async (root) => {
        await mkdir(join(root, "docs"), { recursive: true });
        // /dev/zero's numbers: a read would never end. Needs root (CI is).
        made = spawnSync("mknod", [join(root, "docs/zero.md"), "c", "1", "5"]).status === 0;
      },
    }, async (s) => {
      if (!made) return t.skip("mknod needs root");
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      assert.match(
        s.log.warnings().join("\n"),
        /docs\/zero\.md: not a regular file \(a character device\)/,
      );
    });
  });

  it("a file over max_file_size (default 10 MB) is left out unread, its size in the warning", async () => {
    await withSite(GOOD, {
      prepare: async (root) => {
        // A sparse 1 GB file: reading it would take seconds and a gigabyte.
        const handle = await open(join(root, "docs/big.md"), "w");
        await handle.truncate(1024 ** 3);
        await handle.close();
      },
    }, async (s) => {
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1, warnings.join("\n"));
      assert.match(
        warnings[0],
        /docs\/big\.md: 1\.0 GB, larger than max_file_size \(10\.0 MB\); left out/,
      );
    });
  });

  it("max_file_size is read from the config", async () => {
    const config = `${ALL_PLUGINS}    max_file_size: 1KB\n`;
    await withSite(
      { ...GOOD, "services.yaml": config, "docs/two.md": md({}, "y".repeat(2048)) },
      {},
      async (s) => {
        assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
        const warnings = s.log.warnings();
        assert.equal(warnings.length, 1, warnings.join("\n"));
        assert.match(warnings[0], /docs\/two\.md: 2\.0 KB, larger than max_file_size \(1\.0 KB\)/);
      },
    );
  });
});

describe("the log (SPEC 4, 11)", () => {
  it("escapes control characters in file names, so no line is forged", async () => {
    const name = "docs/a\nwarning: forged.md";
    await withSite({ ...GOOD, [name]: "---\ntitle: [\n---\n" }, {}, async (s) => {
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 1);
      assert.ok(!warnings[0].includes("\n"), warnings[0]);
      assert.match(warnings[0], /^warning: docs\/a\\nwarning: forged\.md: /);
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
    });
  });

  it("prints 20 warnings of one shape and counts the rest in one line", async () => {
    const files: Record<string, string> = { ...GOOD };
    for (let i = 0; i < 25; i++) files[`docs/bad-${i}.md`] = "---\ntitle: [\n---\n";
    await withSite(files, {}, async (s) => {
      const warnings = s.log.warnings();
      assert.equal(warnings.length, 21, warnings.join("\n"));
      assert.match(warnings[20], /\b5 more like\b/);
      assert.match(warnings[20], /\b25 in all\b/);
      assert.deepEqual(await feedIds(s), ["docs_doc_good"]);
    });
  });
});

describe("configuration errors are one line (SPEC 2)", () => {
  const cases: [string, string, RegExp][] = [
    ["an alias bomb", BOMB_CONFIG, /services\.yaml.*alias/],
    [
      "an unclosed brace in a glob",
      `parameters:\n  service.content.config:\n    plugins:\n      docs: { exclude: ["{a,b"] }\n`,
      /plugins\.docs\.exclude\[0\]: expected a glob pattern \(a '\{' is not closed\), got "\{a,b"/,
    ],
    [
      "a closing brace that closes nothing",
      `parameters:\n  service.content.config:\n    plugins:\n      docs: { include: ["a}"] }\n`,
      /plugins\.docs\.include\[0\]: expected a glob pattern/,
    ],
    [
      "a size that is not one",
      `parameters:\n  service.content.config:\n    max_file_size: lots\n    plugins: { docs: ~ }\n`,
      /max_file_size: expected a size such as 10MB/,
    ],
  ];
  for (const [what, yaml, pattern] of cases) {
    it(`${what}: createContentApi rejects with one line`, async () => {
      const root = await writeSite({ "services.yaml": yaml, ...GOOD });
      try {
        await assert.rejects(createContentApi({ config: join(root, "services.yaml") }), (error) => {
          const message = (error as Error).message;
          assert.equal((error as Error).name, "ConfigError", message);
          assert.ok(!message.includes("\n"), message);
          assert.match(message, pattern);
          return true;
        });
      } finally {
        await removeSite(root);
      }
    });
  }
});

describe("the running server under Deno, Bun and Node (SPEC 9, 11)", () => {
  let root: string;
  before(async () => {
    root = await writeSite({
      "services.yaml": configFor(["academy", "docs", "api"]),
      "docs/victim.md": md({ title: "Victim" }, LONG),
      "academy/c1.md": md({ title: "Course" }, LONG),
    });
  });
  after(() => removeSite(root));

  for (const [runtime, command] of Object.entries(RUNTIMES)) {
    it(`${runtime}: a malformed Host is a 400 problem, and no Host steers routing`, async () => {
      const server: Running = await startServer(command("main.ts"), {
        CONTENT_CONFIG: join(root, "services.yaml"),
        BASE_URL: "",
      });
      try {
        const get = (host: string) =>
          rawRequest(
            server.url,
            `GET /docs/victim.json HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
          );
        for (const host of ["a b", "a:99999", "[::1", "127.0.0.1/academy/c1.json?", "x@y"]) {
          const answer = await get(host);
          assert.match(answer, /^HTTP\/1\.1 400/, `${host}: ${answer.slice(0, 200)}`);
          assert.match(answer, /application\/problem\+json/i, host);
          assert.ok(!answer.includes("Course"), `${host} steered routing: ${answer}`);
        }
        const good = await get(new URL(server.url).host);
        assert.match(good, /^HTTP\/1\.1 200/);
        assert.match(good, /"title":"Victim"/);
        assert.ok(!/\bat .*\.ts:\d+/.test(server.stderr()), "no stack trace in the log");
      } finally {
        await server.stop();
      }
    });

    // The timeout only ends a hang: a Deno server whose request waited on the FIFO never answers.
    it(
      `${runtime}: no read waits on a file that became a FIFO; it leaves the feed, later edits still show`,
      {
        timeout: 60_000,
      },
      async () => {
        const dir = await writeSite({
          "services.yaml": configFor(["docs", "api"]),
          ...GOOD,
          "docs/a.md": md({ title: "A" }, LONG),
        });
        // Deno's watcher waits for good on a FIFO it sees appear: a process of its own, stopped by a signal.
        const server: Running = await startServer(command("main.ts"), {
          CONTENT_CONFIG: join(dir, "services.yaml"),
        });
        const ids = async () => {
          const body = await (await fetch(`${server.url}/api/content.json`)).json();
          return body.data.map((item: { id: string }) => item.id) as string[];
        };
        try {
          assert.deepEqual(await ids(), ["docs_doc_a", "docs_doc_good"]);
          const path = join(dir, "docs/a.md");
          await rm(path);
          execFileSync("mkfifo", [path]);
          // Deno's watcher opens a FIFO it sees appear (SPEC 10), so a writer would find a reader
          // there whatever the request does: the mark is asked of the other servers.
          const writer = runtime === "deno" ? undefined : await fifoWriter(path);
          let released: boolean | undefined;
          try {
            const status = (await fetch(`${server.url}/docs/a.json`)).status;
            assert.ok(status === 404 || status === 503, `status ${status}`);
            assert.ok(!writer?.marked(), "the request opened the FIFO: a writer found a reader");
          } finally {
            released = await writer?.release();
          }
          if (writer) assert.ok(released, "the writer marks once a reader comes");
          await eventually(
            "the FIFO leaving the feed",
            async () => !(await ids()).includes("docs_doc_a"),
          );
          await writeFile(join(dir, "docs/b.md"), md({ title: "B" }, LONG));
          await eventually(
            "an edit after the FIFO",
            async () => (await ids()).includes("docs_doc_b"),
          );
          assert.match(server.stderr(), /docs\/a\.md: not a regular file \(a FIFO\)/);
        } finally {
          await server.stop(); // it exits on SIGTERM, a wedged watcher or not
          await removeSite(dir);
        }
      },
    );

    it(`${runtime}: a port in use is one line and exit code 1`, async () => {
      const blocker = net.createServer();
      await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
      const port = (blocker.address() as net.AddressInfo).port;
      try {
        const [program, ...args] = command("main.ts");
        const run = spawnSync(program, args, {
          cwd: ROOT,
          env: {
            ...process.env,
            PORT: String(port),
            HOST: "127.0.0.1",
            CONTENT_CONFIG: join(root, "services.yaml"),
          },
          encoding: "utf8",
          timeout: 30000,
        });
        assert.equal(run.status, 1, run.stderr);
        const lines = run.stderr.trim().split("\n");
        assert.equal(lines.length, 1, run.stderr);
        assert.match(
          lines[0],
          new RegExp(
            `^content-feed: cannot listen on 127\\.0\\.0\\.1:${port}: the port is already in use$`,
          ),
        );
      } finally {
        blocker.close();
      }
    });

    it(`${runtime}: a configuration with an alias bomb is one line and exit code 2`, async () => {
      const dir = await writeSite({
        "services.yaml": BOMB_CONFIG,
      });
      try {
        const [program, ...args] = command("main.ts");
        const run = spawnSync(program, args, {
          cwd: ROOT,
          env: { ...process.env, PORT: "0", CONTENT_CONFIG: join(dir, "services.yaml") },
          encoding: "utf8",
          timeout: 30000,
        });
        // A configuration error is exit code 2, as for every command (SPEC 15).
        assert.equal(run.status, 2, run.stderr);
        assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
        assert.match(run.stderr, /^content-feed: .*services\.yaml.*alias/);
      } finally {
        await removeSite(dir);
      }
    });
  }
});

describe("deep nesting (SPEC 10: listing is linear)", () => {
  // The bound is the test's timeout: listing that resolved every folder's real path was
  // quadratic in the depth and took far longer (docs/performance.md); linear listing does not.
  it("loads 1,900 nested folders, each with its own file", { timeout: 30_000 }, async () => {
    const log = memoryLogger();
    const root = await writeSite({ "services.yaml": configFor(["docs", "api"]) });
    try {
      let folder = join(root, "docs");
      await mkdir(folder, { recursive: true });
      for (let depth = 1; depth <= 1900; depth++) {
        await writeFile(join(folder, "a.md"), md({ title: `Level ${depth}` }, LONG));
        folder = join(folder, "a");
        await mkdir(folder);
      }
      const api = await createContentApi({ config: join(root, "services.yaml"), logger: log });
      assert.equal(api.index.items.length, 1900);
      assert.deepEqual(log.warnings(), []);
    } finally {
      // Flattened first, each folder moved up to the root: a recursive rm of the deep tree takes
      // about 28 s under Bun 1.4 (the load, 3 s), and removing it deepest first 10–48 s on a
      // loaded machine (every call resolves a path 1,900 folders long); renames of short paths,
      // about 1 s.
      let current = join(root, "docs");
      for (let depth = 1; depth <= 1900; depth++) {
        const flat = join(root, `flat-${depth}`);
        await rename(join(current, "a"), flat).catch(() => {});
        current = flat;
      }
      await removeSite(root);
    }
  });
});

describe("convergence of named reloads (SPEC 10)", () => {
  it("a plugin folder renamed away and back, deleted and re-created, follows the disk", async () => {
    const s = await site({
      ...GOOD,
      "faq/q1.md": md({ title: "Q1" }, LONG),
      "faq/q2.md": md({ title: "Q2" }, LONG),
    }, { watch: true });
    const away = `${s.root}-faq-away`;
    try {
      const faq = join(s.root, "faq");
      const has = async (id: string) => (await feedIds(s)).includes(id);
      await rename(faq, away);
      await eventually("the folder renamed away", async () => !(await has("faq_question_q1")));
      await rename(away, faq);
      await eventually("the folder moved back", () => has("faq_question_q2"));
      await writeFile(join(faq, "q3.md"), md({ title: "Q3" }, LONG));
      await eventually("an edit inside it after", () => has("faq_question_q3"));
      await rm(faq, { recursive: true });
      await eventually("the folder deleted", async () => !(await has("faq_question_q1")));
      await mkdir(join(faq, "deep"), { recursive: true });
      await writeFile(join(faq, "deep.md"), md({ title: "Deep" }, LONG));
      await writeFile(join(faq, "deep/q4.md"), md({ title: "Q4" }, LONG));
      await eventually("the folder re-created", () => has("faq_question_deep_q4"));
      // A folder replaced by a file of the same name.
      await rm(join(faq, "deep"), { recursive: true });
      await writeFile(join(faq, "deep"), "not markdown");
      await eventually(
        "a folder replaced by a file",
        async () => !(await has("faq_question_deep_q4")),
      );
    } finally {
      s.api.close();
      await rm(away, { recursive: true, force: true });
      await s.close();
    }
  });
});
