// SPEC 17: "a start with the cache serves byte for byte what a start without
// it serves". A differential test, written before the derivation cache: a
// small site in a real git repository goes through a seeded random series of
// edits, renames, mtime games and git operations (commits, amends, branches,
// checkouts, a detached HEAD, a reset that drops the recorded commit), and
// after each round two services start on it: one on the state folder every
// earlier start used (the journal today, the cache too once it exists), and
// one on an empty state folder. Everything a client can see must be equal,
// but for what a start legitimately makes anew (`meta.generated`,
// `meta.cursor`, and the headers that embed them). A second test kills the
// real server (SIGKILL) at a random moment of its start-up, then compares a
// start on what it left with a fresh one.
//
// `RESTART_SEED=<n>` replays another series (every failure names its seed);
// `RESTART_ROUNDS=<n>` makes it longer.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import { mulberry32 } from "../bench/site.ts";
import { createContentApi } from "../mod.ts";
import { checkContent } from "../src/cli/check.ts";
import { git, HAS_GIT, memoryLogger, removeSite, writeSite } from "./helpers.ts";
import { OWN_RUNTIME, ROOT, RUNTIMES } from "./server_helpers.ts";
import { DatabaseSync } from "node:sqlite";
import { derivationTables } from "../src/sync/derivation_store.ts";
import type { CachedFileRow } from "../src/pipeline/derivation_cache.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

const SEED = Number(process.env.RESTART_SEED ?? 1);
const ROUNDS = Number(process.env.RESTART_ROUNDS ?? 12);
const KILLS = Number(process.env.RESTART_KILLS ?? 5);

/** The services.yaml of the site: every content plugin, every output but MCP. */
const CONFIG = `parameters:
  service.content.config:
    title: Restart test
    description: A site edited between restarts
    url: https://example.com
    plugins:
      docs: ~
      blog: { authors: authors.yml, permalink: "/news/{yyyy}/{mm}/{slug}" }
      academy: ~
      faq: ~
      pages: ~
      api: ~
      sitemap: ~
      llms: ~
      feed: ~
`;
/** The same configuration on an empty state folder: a start without any cache. */
const FRESH_STATE = ".fresh-state";
const FRESH_CONFIG = `${CONFIG}    state: ${FRESH_STATE}\n`;

const PLUGINS = ["docs", "blog", "academy", "faq", "pages"];
const WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " +
  "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu " +
  "markdown feed index vector search deploy release guide lesson module course answer " +
  "café naïve über guía rápida straße données")
  .split(" ");
const TAGS = ["Deno", "Bun", "Node", "Search", "Guía Rápida", "C# & .NET", "Edge"];
const AUTHORS = ["ana", "bo", "Carla Díaz", "Dmitri", "ana"];
const AUTHOR_NAMES = ["Ana Pérez", "Ana P.", "Bo Lin", "Bo Lindqvist", "Ana María"];
const DAY = 86_400_000;

/** Seeded randomness with the few shapes the test needs. */
function randomness(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    int,
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[int(list.length)],
    some: <T>(
      list: readonly T[],
      max: number,
    ): T[] => [...new Set(Array.from({ length: 1 + int(max) }, () => list[int(list.length)]))],
  };
}
type Random = ReturnType<typeof randomness>;

// ---------------------------------------------------------------------------
// Files: front matter as one `key: JSON` line per key, so edits can parse it.

interface Doc {
  front?: Record<string, unknown>;
  body: string;
}

/** The file's front matter and body; a file whose front matter an edit cut is all body. */
function parseDoc(text: string): Doc {
  const end = text.indexOf("\n---\n", 3);
  if (!text.startsWith("---\n") || end < 0) return { body: text };
  const front: Record<string, unknown> = {};
  try {
    for (const line of text.slice(4, end).split("\n")) {
      if (line === "") continue;
      const colon = line.indexOf(": ");
      front[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2));
    }
  } catch {
    return { body: text };
  }
  return { front, body: text.slice(end + 5) };
}

function renderDoc({ front, body }: Doc): string {
  if (front === undefined) return body;
  const lines = Object.entries(front).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `---\n${lines.join("\n")}\n---\n${body}`;
}

const sentence = (r: Random, words: number) => {
  const list = Array.from({ length: words }, () => r.pick(WORDS));
  return `${list.join(" ").replace(/^./, (c) => c.toUpperCase())}.`;
};
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const randomDay = (r: Random) => day(Date.UTC(2019, 0, 1) + r.int(7 * 365) * DAY);

/** A body: mostly prose long enough for the feed; some short, empty or with a heading. */
function makeBody(r: Random): string {
  const kind = r.int(20);
  if (kind === 0) return "";
  if (kind === 1) return `${sentence(r, 3)}\n`;
  const parts = [];
  if (kind === 2) parts.push(`# ${sentence(r, 2).slice(0, -1)}`);
  for (let p = 0; p < 1 + r.int(3); p++) {
    parts.push(sentence(r, 12 + r.int(30)));
    if (r.chance(0.2)) parts.push(`## ${sentence(r, 2).slice(0, -1)}`);
    if (r.chance(0.1)) parts.push("```sh\nnpm install content-feed\n```");
  }
  return `${parts.join("\n\n")}\n`;
}

function makeFront(r: Random, plugin: string): Record<string, unknown> | undefined {
  if (r.chance(0.12)) return undefined;
  const front: Record<string, unknown> = {};
  if (r.chance(0.85)) front.title = sentence(r, 1 + r.int(3)).slice(0, -1);
  if (r.chance(0.6)) front.tags = r.some(TAGS, 3);
  if (r.chance(0.5)) front.authors = r.chance(0.5) ? r.pick(AUTHORS) : r.some(AUTHORS, 2);
  if (r.chance(0.35)) front.date = randomDay(r);
  if (r.chance(0.08)) front.last_update = randomDay(r);
  if (r.chance(0.15)) front.description = sentence(r, 8);
  if (plugin === "docs" && r.chance(0.4)) front.sidebar_position = r.int(5);
  if (r.chance(0.06)) front.draft = true;
  // Values that warn (and fall back to a default, or to a draft).
  if (r.chance(0.03)) front.date = "2024-13-45";
  if (r.chance(0.03)) front.draft = "maybe";
  if (r.chance(0.04)) front.indexable = false;
  return front;
}

function makeFile(r: Random, path: string): string {
  if (path.endsWith(".html")) {
    return `<h1>${sentence(r, 2).slice(0, -1)}</h1>\n<p>${sentence(r, 10 + r.int(30))}</p>\n`;
  }
  return renderDoc({ front: makeFront(r, path.split("/")[0]), body: makeBody(r) });
}

function authorsFile(r: Random): string {
  return `ana:\n  name: ${r.pick(AUTHOR_NAMES.slice(0, 2))}\nbo:\n  name: ${
    r.pick(AUTHOR_NAMES.slice(2, 4))
  }\n`;
}

/** The site at the start: nested folders, own files of every kind, dated names, HTML pages. */
const LAYOUT = [
  "docs/index.md",
  "docs/intro.md",
  "docs/guide.md",
  "docs/guide/install.md",
  "docs/guide/configure.md",
  "docs/guide/advanced/README.md",
  "docs/guide/advanced/tuning.md",
  "docs/guide/advanced/scaling.md",
  "docs/reference/api.md",
  "docs/reference/cli.md",
  "docs/reference/deep/flags.md",
  "docs/reference/deep/env.md",
  "docs/2023-01-05-changelog.md",
  "docs/topics/_index.md",
  "docs/topics/one.md",
  "docs/topics/two.mdx",
  "blog/2024-03-01-hello.md",
  "blog/2024-05-02-world/index.md",
  "blog/2024-06-10-third.md",
  "blog/news.md",
  "blog/2023/recap.md",
  "blog/2023/2023-12-24-holiday.md",
  "blog/ideas.md",
  "academy/intro-course.md",
  "academy/intro-course/basics.md",
  "academy/intro-course/basics/first-steps.md",
  "academy/intro-course/basics/second-steps.md",
  "academy/intro-course/advanced.md",
  "academy/intro-course/advanced/deep-dive.md",
  "academy/second-course/index.md",
  "academy/second-course/m1.md",
  "academy/second-course/m1/l1.md",
  "academy/second-course/m1/l2.md",
  "faq/general.md",
  "faq/billing/refunds.md",
  "faq/billing/invoices.md",
  "pages/about.md",
  "pages/contact.html",
  "pages/legal/terms.md",
  "pages/legal/privacy.html",
];

// ---------------------------------------------------------------------------
// The site on disk and the operations on it.

async function listFiles(root: string, dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(join(root, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...await listFiles(root, path));
    else out.push(path);
  }
  return out.sort();
}

/** Whole seconds, which `utimes` sets exactly (so a restored mtime is the very same). */
const wholeSeconds = async (abs: string) =>
  (await stat(abs, { bigint: true })).mtimeNs % 1_000_000_000n === 0n;

/** A site in a git repository, the operations made on it, and their log. */
async function createSite(r: Random) {
  const files: Record<string, string> = {
    "services.yaml": CONFIG,
    "services-fresh.yaml": FRESH_CONFIG,
    ".gitignore": `/.content-feed/\n/${FRESH_STATE}/\n/services*.yaml\n`,
    "blog/authors.yml": authorsFile(r),
  };
  for (const path of LAYOUT) files[path] = makeFile(r, path);
  // Files that warn: a uri two files claim, a lesson too deep, front matter that is not YAML.
  files["docs/reference/api.mdx"] = makeFile(r, "docs/reference/api.mdx");
  files["academy/intro-course/basics/first-steps/too-deep.md"] = makeFile(r, "academy/x.md");
  files["faq/broken.md"] = `---\ntitle: [unclosed\n---\n${makeBody(r)}`;
  for (let i = 0; i < 18; i++) {
    const plugin = r.pick(PLUGINS);
    const folder = r.pick(["", "extra/", "guide/", "more/deeper/"]);
    files[`${plugin}/${folder}x${i}.md`] = makeFile(r, `${plugin}/x${i}.md`);
  }
  const root = await writeSite(files);
  // Modification times of whole seconds, spread over years: what files without a
  // commit fall back to, and what an edit can later restore exactly.
  for (const path of Object.keys(files)) {
    const when = (Date.UTC(2020, 0, 1) + r.int(4 * 365) * DAY + r.int(DAY)) / 1000;
    await utimes(join(root, path), Math.floor(when), Math.floor(when));
  }
  let clock = Date.UTC(2021, 0, 1, 10);
  /** The next commit date: mostly later than the last one, sometimes earlier (a clock set back). */
  const commitDate = () => {
    clock += r.chance(0.15) ? -r.int(400) * DAY : (1 + r.int(30)) * DAY + r.int(DAY);
    return new Date(clock).toISOString().replace(/\.\d+Z$/, "Z");
  };
  const run = (args: string[], date?: string) => git(root, args, date);
  run(["init", "-q", "-b", "main"]);
  run(["add", ".gitignore", "blog/authors.yml"]);
  // A few files stay untracked: their dates come from their modification times.
  run([
    "add",
    "--",
    ...Object.keys(files).filter((p) => /\.(md|mdx|html)$/.test(p) && r.chance(0.9)),
  ]);
  run(["commit", "-qm", "initial"], commitDate());

  const abs = (path: string) => join(root, path);
  const content = async () =>
    (await Promise.all(PLUGINS.map((p) => listFiles(root, p)))).flat()
      .filter((p) => /\.(md|mdx|html)$/.test(p));
  const markdown = async () => (await content()).filter((p) => !p.endsWith(".html"));
  const folders = async () =>
    [
      ...new Set((await content()).map((p) => dirname(p))),
    ].sort();
  let made = 0;
  /** Two files made the same size and mtime, waiting for the next round to swap them. */
  let twins: { a: string; b: string } | undefined;

  const editDoc = async (path: string, edit: (doc: Doc) => void) => {
    const doc = parseDoc(await readFile(abs(path), "utf8"));
    edit(doc);
    await writeFile(abs(path), renderDoc(doc));
  };
  /** The file with one ASCII letter of its body replaced: other bytes, the same size. */
  const sameSize = (text: string) => {
    const start = text.startsWith("---\n") ? text.indexOf("\n---\n", 3) + 5 : 0;
    const letters = [...text.slice(start).matchAll(/[a-z]/g)].map((m) => start + m.index!);
    if (letters.length === 0) return undefined;
    const at = r.pick(letters);
    const letter = String.fromCharCode(97 + (text.charCodeAt(at) - 97 + 1 + r.int(24)) % 26);
    return { text: text.slice(0, at) + letter + text.slice(at + 1), at };
  };
  /** The file with a different size: a sentence added, or its body cut. */
  const otherSize = (text: string) => {
    if (r.chance(0.7) || text.length < 80) return `${text}\n${sentence(r, 3 + r.int(20))}\n`;
    return text.slice(0, text.length - 1 - r.int(Math.min(60, text.length - 60)));
  };
  const newName = (folder: string, path: string) => {
    const ext = path.endsWith(".html") ? ".html" : r.pick([".md", ".md", ".mdx"]);
    return `${folder}/${
      r.chance(0.3) ? "2025-0" + (1 + r.int(9)) + "-1" + r.int(9) + "-" : ""
    }n${++made}${ext}`;
  };
  /** Content files that git calls changed since their commit, or does not track. */
  const dirty = () => {
    const entries = run(["status", "--porcelain=v1", "-z", "--untracked-files=all"]).split("\0");
    const paths = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (/^[RC]/.test(entry)) i++; // a rename names its source next
      if (entry.length > 3 && !/D/.test(entry.slice(0, 2))) paths.push(entry.slice(3));
    }
    return paths.filter((path) => /\.(md|mdx|html)$/.test(path)).sort();
  };
  const settle = async (path: string) => {
    const when = Math.floor(Date.now() / 1000) - r.int(3 * 86400);
    await utimes(abs(path), when, when);
  };

  /** Commits everything (new files, deletions) with the next commit date. */
  const commitAll = (message: string) => {
    run(["add", "-A", "."]);
    run(["commit", "-q", "--allow-empty", "-m", message], commitDate());
  };
  const commits = () => Number(run(["rev-list", "--count", "HEAD"]).trim());
  const branches = () =>
    run(["branch", "--format=%(refname:short)"]).split("\n").filter((b) => b && !b.startsWith("("));
  const current = () => run(["branch", "--show-current"]).trim();

  /**
   * Two files made one size and one mtime with other bytes, both changed since
   * their commit (or untracked), at the end of a round: the next round starts by
   * swapping them.
   */
  const prepareTwins = async () => {
    const all = await markdown();
    const a = r.pick(all), b = r.pick(all);
    const first = sameSize(await readFile(abs(a), "utf8"));
    if (a === b || !first) return undefined;
    let second = sameSize(first.text);
    while (second?.text === first.text) second = sameSize(first.text);
    await writeFile(abs(a), first.text);
    await writeFile(abs(b), second!.text);
    const when = Math.floor(Date.now() / 1000) - 3600 - r.int(86400);
    await utimes(abs(a), when, when);
    await utimes(abs(b), when, when);
    twins = { a, b };
    return `${a} edited at byte ${first.at}, ${b} rewritten as that with byte ${
      second!.at
    } changed (one size), both given one mtime`;
  };
  /**
   * The twins swapped by renames: each path keeps its size, its mtime and what
   * git says of it (changed), with other bytes: only the inode tells.
   */
  const swapTwins = async () => {
    const { a, b } = twins!;
    twins = undefined;
    const [sa, sb] = await Promise.all([stat(abs(a)), stat(abs(b))]);
    assert.equal(sa.size, sb.size, "the twins' sizes");
    assert.equal(sa.mtimeMs, sb.mtimeMs, "the twins' mtimes");
    const changed = dirty();
    assert.ok(
      changed.includes(a) && changed.includes(b),
      "the twins are changed since their commit",
    );
    await rename(abs(a), abs(".swap"));
    await rename(abs(b), abs(a));
    await rename(abs(".swap"), abs(b));
    return `${a} and ${b} swapped by renames (same sizes and mtimes, other inodes)`;
  };

  type Operation = () => Promise<string | undefined>;
  const fileOps: [number, Operation][] = [
    [4, async () => {
      const path = r.pick(await content());
      const edited = sameSize(await readFile(abs(path), "utf8"));
      if (!edited) return undefined;
      await writeFile(abs(path), edited.text);
      return `same-size edit of ${path} at byte ${edited.at}`;
    }],
    [3, async () => {
      // A file git already calls changed (or does not track): its commit dates stay as they are.
      const changed = dirty();
      if (changed.length === 0) return undefined;
      const path = r.pick(changed);
      const edited = sameSize(await readFile(abs(path), "utf8"));
      if (!edited) return undefined;
      await writeFile(abs(path), edited.text);
      return `same-size edit of ${path} (changed since its commit, or untracked) at byte ${edited.at}`;
    }],
    [4, async () => {
      const path = r.pick(await content());
      await writeFile(abs(path), otherSize(await readFile(abs(path), "utf8")));
      return `edit of ${path} (another size)`;
    }],
    [3, async () => {
      const path = r.pick(await markdown());
      const title = sentence(r, 1 + r.int(3)).slice(0, -1);
      await editDoc(path, (doc) => (doc.front ??= {}).title = title);
      return `title of ${path} set to ${JSON.stringify(title)}`;
    }],
    [3, async () => {
      const path = r.pick(await markdown());
      const tags = r.some(TAGS, 3);
      await editDoc(path, (doc) => (doc.front ??= {}).tags = tags);
      return `tags of ${path} set to ${JSON.stringify(tags)}`;
    }],
    [3, async () => {
      const path = r.pick(await markdown());
      const date = r.chance(0.6) ? randomDay(r) : undefined;
      await editDoc(path, (doc) => {
        doc.front ??= {};
        if (date) doc.front.date = date;
        else delete doc.front.date;
      });
      return date ? `date of ${path} set to ${date}` : `date of ${path} removed`;
    }],
    [3, async () => {
      const path = r.pick(await markdown());
      let draft = false;
      await editDoc(path, (doc) => {
        doc.front ??= {};
        draft = !doc.front.draft;
        if (draft) doc.front.draft = true;
        else delete doc.front.draft;
      });
      return draft ? `${path} made a draft` : `${path} no longer a draft`;
    }],
    [3, async () => {
      // What a load warns about, and what only a fresh read of the file can say again.
      const path = r.pick(await markdown());
      const text = await readFile(abs(path), "utf8");
      switch (r.int(4)) {
        case 0:
          await writeFile(abs(path), `---\ntitle: "${sentence(r, 2)}\n---\n${text}`);
          return `front matter of ${path} made invalid YAML`;
        case 1:
          await editDoc(path, (doc) => (doc.front ??= {}).date = "2024-13-45");
          return `date of ${path} set to an impossible 2024-13-45`;
        case 2:
          await editDoc(path, (doc) => (doc.front ??= {}).draft = "maybe");
          return `draft of ${path} set to "maybe" (not a boolean)`;
        default: {
          const twin = path.replace(/\.mdx?$/, (ext) => ext === ".md" ? ".mdx" : ".md");
          await writeFile(abs(twin), text);
          return `${path} copied to ${twin} (one uri, two files)`;
        }
      }
    }],
    [4, async () => {
      const plugin = r.pick(PLUGINS);
      const inPlugin = (await folders()).filter((f) => f === plugin || f.startsWith(`${plugin}/`));
      const folder = r.chance(0.25) ? `${plugin}/new${made}` : r.pick(inPlugin.concat(plugin));
      const path = newName(folder, r.chance(0.1) && plugin === "pages" ? "x.html" : "x.md");
      await mkdir(dirname(abs(path)), { recursive: true });
      await writeFile(abs(path), makeFile(r, path));
      return `${path} added`;
    }],
    [3, async () => {
      const all = await content();
      if (all.length < 40) return undefined;
      const path = r.pick(all);
      await rm(abs(path));
      return `${path} deleted`;
    }],
    [4, async () => {
      // A rename keeps the file's inode, size and modification time.
      const path = r.pick(await content());
      const plugin = r.pick(PLUGINS);
      const folder = r.chance(0.3)
        ? `${plugin}/moved${made}`
        : r.pick((await folders()).filter((f) => f.startsWith(`${plugin}/`)).concat(plugin));
      const to = newName(folder, path);
      await mkdir(dirname(abs(to)), { recursive: true });
      await rename(abs(path), abs(to));
      return `${path} renamed to ${to}`;
    }],
    [1, async () => {
      const candidates = (await folders()).filter((f) => f.split("/").length >= 2);
      if (candidates.length === 0) return undefined;
      const folder = r.pick(candidates);
      const to = `${folder.split("/")[0]}/folder${++made}`;
      await rename(abs(folder), abs(to));
      return `folder ${folder} renamed to ${to}`;
    }],
    [3, async () => {
      // Half the time a file whose dates come from its mtime (changed, or untracked).
      const changed = dirty();
      const path = r.pick(changed.length > 0 && r.chance(0.5) ? changed : await content());
      const when = Math.floor(Date.UTC(2019, 0, 1) / 1000) + r.int(6 * 365 * 86400);
      await utimes(abs(path), when, when);
      return `mtime of ${path} set to ${new Date(when * 1000).toISOString()} (content unchanged)`;
    }],
    [3, async () => {
      // Other bytes of another size under the modification time the last start saw.
      const kept = [];
      for (const path of await content()) if (await wholeSeconds(abs(path))) kept.push(path);
      if (kept.length === 0) {
        const path = r.pick(await content());
        await settle(path);
        return `mtime of ${path} set to a whole second`;
      }
      const path = r.pick(kept);
      const { atime, mtime } = await stat(abs(path));
      await writeFile(abs(path), otherSize(await readFile(abs(path), "utf8")));
      await utimes(abs(path), atime, mtime);
      return `edit of ${path} (another size), its mtime restored to ${mtime.toISOString()}`;
    }],
    [2, async () => {
      const path = r.pick(await content());
      const future = r.chance(0.5);
      const when = future
        ? Date.now() / 1000 + 86400 * (30 + r.int(2000))
        : Date.UTC(2001, 0, 1) / 1000 + r.int(5 * 365 * 86400);
      await writeFile(abs(path), otherSize(await readFile(abs(path), "utf8")));
      await utimes(abs(path), when, when);
      return `edit of ${path} (another size), mtime set to the ${future ? "future" : "past"} ${
        new Date(when * 1000).toISOString()
      }`;
    }],
    [1, async () => {
      const path = r.pick(await content());
      await settle(path);
      return `mtime of ${path} set to a whole second`;
    }],
    [1, async () => {
      // The plugin's authors file: every file naming `ana` or `bo` derives another author.
      const old = await readFile(abs("blog/authors.yml"), "utf8");
      let text = old;
      while (text === old) text = authorsFile(r);
      await writeFile(abs("blog/authors.yml"), text);
      return `blog/authors.yml rewritten: ${JSON.stringify(text)}`;
    }],
  ];
  const gitOps: [number, Operation][] = [
    [5, () => {
      commitAll("everything");
      return Promise.resolve("git add -A && git commit");
    }],
    [3, () => {
      if (run(["status", "--porcelain", "--untracked-files=no"]) === "") {
        return Promise.resolve(undefined);
      }
      const date = commitDate();
      run(["commit", "-q", "-a", "-m", "tracked"], date);
      return Promise.resolve(`git commit -am (${date})`);
    }],
    [1, () => {
      run(["add", "-A", "."]);
      return Promise.resolve("git add -A (staged, not committed)");
    }],
    [3, async () => {
      const date = commitDate();
      const withContent = r.chance(0.5);
      let what = "";
      if (withContent) what = ` after ${await pick(fileOps)() ?? "nothing"}`;
      const all = withContent ? ["-a"] : [];
      run(["commit", "-q", "--amend", "--allow-empty", "--no-edit", ...all], date);
      return `git commit --amend${withContent ? " -a" : ""} (${date})${what}`;
    }],
    [2, async () => {
      const name = `b${++made}`;
      run(["checkout", "-q", "-b", name]);
      const done = [];
      for (let i = 0; i < 1 + r.int(3); i++) done.push(await pick(fileOps)());
      commitAll(`on ${name}`);
      return `git checkout -b ${name}, then ${done.filter(Boolean).join("; ")}, then a commit`;
    }],
    [3, () => {
      const here = current();
      const others = branches().filter((b) => b !== here);
      if (others.length === 0) return Promise.resolve(undefined);
      const to = r.pick(others);
      const force = r.chance(0.5);
      if (!force) commitAll(`before leaving ${here || "a detached HEAD"}`);
      run(["checkout", "-q", ...(force ? ["-f"] : []), to]);
      return Promise.resolve(`${force ? "git checkout -f" : "git commit, git checkout"} ${to}`);
    }],
    [3, () => {
      const count = commits();
      if (count < 2) return Promise.resolve(undefined);
      // Behind the commit the last start saw, past the one made here.
      const back = Math.min(count, 2 + r.int(3));
      commitAll("before detaching");
      run(["checkout", "-q", "--detach", `HEAD~${back}`]);
      return Promise.resolve(`git commit, git checkout --detach HEAD~${back}`);
    }],
    [3, () => {
      if (commits() < 2) return Promise.resolve(undefined);
      run(["reset", "-q", "--hard", "HEAD~1"]);
      return Promise.resolve("git reset --hard HEAD~1");
    }],
  ];
  /** The git operations beyond a plain commit: amend, branch, checkout, detach, reset. */
  const movesHead = gitOps.slice(3);
  const pick = (ops: [number, Operation][]): Operation => {
    let at = r.int(ops.reduce((sum, [weight]) => sum + weight, 0));
    for (const [weight, op] of ops) {
      if ((at -= weight) < 0) return op;
    }
    return ops[0][1];
  };
  /** Every operation once, shuffled, dealt three a round: the first nine rounds try each. */
  let deck: Operation[] = [];
  const isGit = new Set(gitOps.map(([, op]) => op));
  const deal = (fileOnly: boolean): Operation => {
    for (let tries = 0; tries < 10; tries++) {
      if (deck.length === 0) {
        deck = [...fileOps, ...gitOps].map(([, op]) => op);
        for (let i = deck.length - 1; i > 0; i--) {
          const j = r.int(i + 1);
          [deck[i], deck[j]] = [deck[j], deck[i]];
        }
      }
      const op = deck.shift()!;
      if (!fileOnly || !isGit.has(op)) return op;
      deck.push(op);
    }
    return pick(fileOps);
  };
  return {
    root,
    config: join(root, "services.yaml"),
    freshConfig: join(root, "services-fresh.yaml"),
    /**
     * Runs a few operations, file edits and git's: first the swap of the twins
     * the last round made, or every other round one that moves HEAD; then
     * three from the deck and a few at random; last (every fourth round, or
     * by chance) new twins. Returns what they did.
     */
    async round(n: number): Promise<string[]> {
      const done: string[] = [];
      const step = async (operation: Operation) => {
        try {
          const what = await operation();
          if (what) done.push(what);
        } catch (error) {
          const before = done.join("; ") || "nothing";
          throw new Error(`round ${n} (RESTART_SEED=${SEED}) failed after ${before}: ${error}`);
        }
      };
      // After a swap no git operation: a commit would tell the twins apart by their dates.
      const swapped = twins !== undefined;
      if (swapped) await step(swapTwins);
      // Every other round first moves HEAD, mostly away from the commit the last start saw.
      else if (r.chance(0.5)) await step(pick(movesHead));
      for (let i = 0; i < 3; i++) await step(deal(swapped));
      for (let i = r.int(3); i > 0; i--) {
        await step(pick(r.chance(swapped ? 0 : 0.4) ? gitOps : fileOps));
      }
      if (n % 4 === 1 || r.chance(0.2)) await step(prepareTwins);
      if (process.env.RESTART_VERBOSE) console.error(`round ${n}: ${done.join("; ")}`);
      return done;
    },
  };
}

// ---------------------------------------------------------------------------
// What a client sees of one start.

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Seen {
  /** The feed items of the plain feed, for the `since` check. */
  feed: Json[];
  cursor: string;
  /** Every answer, by request path. */
  answers: Map<string, Answer>;
  /** The served items, `type/uri`, sorted. */
  items: string[];
  /** The warnings logged, sorted. */
  warnings: string[];
  /** `check`'s report on the same config, when asked for. */
  check: Json;
  /** The answer to `since=<the previous start's cursor>`, when asked. */
  since?: { status: number; body: Json };
}

/** Routes whose every answer is compared. */
const ROUTES = [
  "/api/content.json",
  "/api/content.json?include=url",
  "/api/content.json?include=url,body,text,sections",
  "/api/content.json?fields=id,checksum,last_update&sort=-last_update",
  "/sitemap.xml",
  "/llms.txt",
  "/llms-full.txt",
  "/feed.json",
];

/** Lines of the log that say something about the state folder, which differs by design. */
const STATE_LINE = /journal|cache|state folder|\.content-feed|fresh-state/i;

/**
 * The answer with what a start makes anew taken out: `meta.generated` and
 * `meta.cursor` (and the ETag and Content-Length of a body that holds them);
 * `Last-Modified`, the build time. Everything else byte for byte.
 */
function normalize(response: Response, text: string): Answer {
  const headers: Record<string, string> = {};
  let body = text;
  const meta = text.startsWith('{"meta":') ? text.indexOf(',"data":') : -1;
  if (meta > 0) {
    body = text.slice(0, meta).replace(/"(generated|cursor)":"[^"]*"/g, `"$1":"…"`) +
      text.slice(meta);
  }
  for (const [name, value] of response.headers) {
    if (name === "last-modified" || name === "date") continue;
    // A digest and a length of the bytes that hold them.
    if ((name === "etag" || name === "content-length") && body !== text) continue;
    headers[name] = value;
  }
  return { status: response.status, headers, body };
}

/** What one start asks besides the routes. */
interface Asks {
  /** Item paths (`type/uri`) served by earlier starts: gone ones must be gone from both. */
  readonly paths: Iterable<string>;
  /** The clock of the start. */
  readonly now: number;
  /** What the previous start on the same state folder saw: its cursor is asked for `since`. */
  readonly previous?: Seen;
  /** Whether to run `check` on the same config too. */
  readonly check?: boolean;
}

/** Starts the service on `config`, asks it everything, and stops it. */
async function observe(config: string, asks: Asks): Promise<Seen> {
  const log = memoryLogger();
  const api = await createContentApi({ config, logger: log, now: () => asks.now });
  try {
    const get = async (path: string) => {
      const response = await api.fetch(new Request(`http://localhost:8000${path}`));
      return normalize(response, await response.text());
    };
    const answers = new Map<string, Answer>();
    for (const route of ROUTES) answers.set(route, await get(route));
    // Every served item (the feed's and the others), and every one served before.
    const items = api.index.items.map((item) => `${item.type}/${item.uri}`);
    const asked = [...new Set([...items, ...asks.paths])].flatMap((path) =>
      [".json", ".md"].map((form) => `/${path}${form}`)
    );
    const got = await Promise.all(asked.map(get));
    asked.forEach((path, i) => answers.set(path, got[i]));
    let since;
    if (asks.previous !== undefined) {
      const response = await api.fetch(
        new Request(`http://localhost:8000/api/content.json?since=${asks.previous.cursor}`),
      );
      since = { status: response.status, body: await response.json() };
    }
    const report = asks.check ? await checkContent(config) : undefined;
    return {
      feed: JSON.parse(answers.get("/api/content.json")!.body).data,
      cursor: api.cursor,
      since,
      answers,
      items: items.sort(),
      warnings: log.warnings().filter((line) => !STATE_LINE.test(line)).sort(),
      // The order of `check`'s warnings follows the loader's history (a re-index lists
      // a new clash last, a fresh start in path order): compared as a set, like the log.
      check: report && {
        ...report,
        config: undefined,
        warnings: report.warnings.map((w) => JSON.stringify(w)).sort(),
      },
    };
  } finally {
    api.close();
  }
}

const show = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 240 ? `${text.slice(0, 240)}…` : text;
};

/** Where two JSON values first differ, as a path with both values; `undefined` when equal. */
function firstDifference(a: unknown, b: unknown, path = ""): string | undefined {
  if (Object.is(a, b)) return undefined;
  const at = path || "(the whole value)";
  if (
    typeof a !== "object" || typeof b !== "object" || a === null || b === null ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${at}: with state ${show(a)}, fresh ${show(b)}`;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    // Lists of items: the first item that differs by id, then ids on one side only, then order.
    const ids = (list: unknown[]) =>
      list.length > 0 && list.every((x) => typeof (x as Json)?.id === "string")
        ? list.map((x) => (x as Json).id as string)
        : undefined;
    const [ia, ib] = [ids(a), ids(b)];
    if (ia && ib && ia.join("\n") !== ib.join("\n")) {
      const inB = new Map(b.map((x) => [(x as Json).id, x]));
      for (const [i, x] of a.entries()) {
        if (!inB.has(ia[i])) continue;
        const found = firstDifference(x, inB.get(ia[i]), `${path}[${i} ${ia[i]}]`);
        if (found) return found;
      }
      const onlyA = ia.filter((id) => !ib.includes(id));
      const onlyB = ib.filter((id) => !ia.includes(id));
      if (onlyA.length + onlyB.length > 0) {
        return `${at}: ids only with state ${show(onlyA)}, only fresh ${show(onlyB)}`;
      }
      const i = ia.findIndex((id, i) => id !== ib[i]);
      return `${at}: another order from [${i}]: with state ${show(ia.slice(i, i + 6))}, fresh ${
        show(ib.slice(i, i + 6))
      }`;
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const id = (a[i] as Json)?.id ?? (b[i] as Json)?.id;
      const found = firstDifference(a[i], b[i], `${path}[${i}${id ? ` ${id}` : ""}]`);
      if (found) return found;
    }
    return undefined;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  for (const key of [...ka, ...kb.filter((k) => !ka.includes(k))]) {
    const found = firstDifference(
      (a as Record<string, unknown>)[key],
      (b as Record<string, unknown>)[key],
      `${path}.${key}`,
    );
    if (found) return found;
  }
  if (ka.join() !== kb.join()) {
    return `${at}: keys in another order: ${show(ka)}, fresh ${show(kb)}`;
  }
  return undefined;
}

function textDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  try {
    const found = firstDifference(JSON.parse(a), JSON.parse(b));
    if (found) return found;
  } catch {
    // not JSON: the text itself
  }
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const line = a.slice(0, i).split("\n").length;
  const around = (text: string) => show(text.slice(Math.max(0, i - 80), i + 80));
  return `first difference at character ${i} (line ${line}): with state ${around(a)}, fresh ${
    around(b)
  }`;
}

/** The first difference between a start with state and a fresh start, or `undefined`. */
function compare(withState: Seen, fresh: Seen): string | undefined {
  const items = firstDifference(withState.items, fresh.items);
  if (items) {
    const onlyA = withState.items.filter((x) => !fresh.items.includes(x));
    const onlyB = fresh.items.filter((x) => !withState.items.includes(x));
    return `served items differ: only with state ${show(onlyA)}, only fresh ${show(onlyB)}`;
  }
  for (const [path, a] of withState.answers) {
    const b = fresh.answers.get(path);
    if (!b) return `GET ${path}: asked of the start with state only`;
    if (a.status !== b.status) {
      return `GET ${path}: status ${a.status} with state, ${b.status} fresh (${show(a.body)})`;
    }
    const body = textDifference(a.body, b.body);
    if (body) return `GET ${path}: ${body}`;
    const headers = firstDifference(a.headers, b.headers);
    if (headers) return `GET ${path}: headers differ at ${headers}`;
  }
  const warnings = firstDifference(withState.warnings, fresh.warnings);
  if (warnings) {
    const onlyA = withState.warnings.filter((x) => !fresh.warnings.includes(x));
    const onlyB = fresh.warnings.filter((x) => !withState.warnings.includes(x));
    return `warnings logged differ: only with state ${show(onlyA)}, only fresh ${show(onlyB)}`;
  }
  const check = firstDifference(withState.check, fresh.check);
  if (check) return `check reports differ at ${check}`;
  return undefined;
}

/** A feed item without its tags' counts, which change with other items (SPEC 12). */
const comparable = (item: Json) => ({
  ...item,
  tags: item.tags.map(({ name, slug }: Json) => ({ name, slug })),
});

/**
 * What `since=<the previous start's cursor>` answered on the start with
 * state must be exactly what changed between the two starts' feeds: every
 * item that entered or changed (in its current form), and every id that left;
 * and the journal is the same one.
 */
function sinceProblem(previous: Seen, seen: Seen): string | undefined {
  const cursor = previous.cursor;
  if (seen.cursor.split(".")[0] !== cursor.split(".")[0]) {
    return `the journal was lost: cursor ${seen.cursor} after ${cursor}`;
  }
  const before = new Map(previous.feed.map((item) => [item.id, JSON.stringify(comparable(item))]));
  const now = new Map(seen.feed.map((item) => [item.id, item]));
  const changed = seen.feed.filter((item) =>
    before.get(item.id) !== JSON.stringify(comparable(item))
  ).map((item) => item.id).sort();
  const left = [...before.keys()].filter((id) => !now.has(id)).sort();
  const { status, body } = seen.since!;
  if (status !== 200) return `since=${cursor}: ${status} ${show(body)}`;
  const data = body.data.map((item: Json) => item.id).sort();
  const deleted = body.deleted.map((item: Json) => item.id).sort();
  if (firstDifference(data, changed) ?? firstDifference(deleted, left)) {
    return `since=${cursor}: changed ids ${show(data)}, deleted ${show(deleted)}; ` +
      `the feeds say changed ${show(changed)}, deleted ${show(left)}`;
  }
  for (const item of body.data) {
    const found = firstDifference(item, now.get(item.id), item.id);
    if (found) return `since=${cursor}: not the current form: ${found}`;
  }
  return undefined;
}

type Site = Awaited<ReturnType<typeof createSite>>;

/**
 * Starts on the kept state folder and on an empty one, and fails naming the
 * round, what it did and the first difference. Returns what the start with
 * state saw.
 */
async function startsAgree(site: Site, context: () => string, asks: Asks): Promise<Seen> {
  const withState = await observe(site.config, asks);
  await rm(join(site.root, FRESH_STATE), { recursive: true, force: true });
  const fresh = await observe(site.freshConfig, { ...asks, previous: undefined });
  await rm(join(site.root, FRESH_STATE), { recursive: true, force: true });
  const problem = compare(withState, fresh);
  if (problem) assert.fail(`${context()}\n${problem}`);
  if (asks.previous !== undefined) {
    const lost = sinceProblem(asks.previous, withState);
    if (lost) assert.fail(`${context()}\nsync across the restart: ${lost}`);
  }
  return withState;
}

/** What the rounds did, for a failure's message. */
class History {
  readonly rounds: { name: string; ops: string[] }[] = [{ name: "the first start", ops: [] }];

  add(name: string, ops: string[]): void {
    this.rounds.push({ name, ops });
  }

  /** The seed, the round and what it did, then what the earlier rounds did. */
  describe = (): string => {
    const said = ({ name, ops }: { name: string; ops: string[] }) =>
      `${name}: ${ops.join("; ") || "nothing"}`;
    return [
      `a start on the kept state folder disagrees (RESTART_SEED=${SEED} repeats this series)`,
      `in ${said(this.rounds.at(-1)!)}`,
      ...(this.rounds.length > 1
        ? [`earlier: ${this.rounds.slice(0, -1).map(said).join(" | ")}`]
        : []),
    ].join("\n");
  };
}

/** Item paths served by any start so far: each start is asked for every one. */
function servedSoFar(seen: Seen, paths: Set<string>): Set<string> {
  for (const item of seen.items) paths.add(item);
  return paths;
}

/**
 * Starts the real server (`main.ts` under the runtime running this file) on
 * `config` and kills it with SIGKILL `delay` ms after it was spawned, or
 * once it listens when no delay is given. Resolves with whether it listened
 * and after how many ms.
 */
async function killedStart(config: string, delay?: number) {
  const command = RUNTIMES[OWN_RUNTIME]("main.ts");
  const spawned = Date.now();
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      CONTENT_CONFIG: config,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let listened: number | undefined;
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const listening = new Promise<void>((resolve) =>
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      if (listened === undefined && /listening on/.test(out)) {
        listened = Date.now() - spawned;
        resolve();
      }
    })
  );
  child.stderr!.on("data", (chunk) => out += chunk);
  if (delay === undefined) await Promise.race([listening, exited]);
  else await new Promise((resolve) => setTimeout(resolve, delay));
  child.kill("SIGKILL");
  await exited;
  if (delay === undefined && listened === undefined) {
    assert.fail(`the server did not start: ${out}`);
  }
  return { listened, after: Date.now() - spawned };
}

describe("a restart serves what a fresh start serves (SPEC 17)", () => {
  it(`after each of ${ROUNDS} rounds of edits and git operations`, {
    timeout: 120_000,
  }, async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const site = await createSite(randomness(SEED));
    const history = new History();
    const paths = new Set<string>();
    try {
      let now = Date.UTC(2026, 0, 1);
      let previous = await startsAgree(site, history.describe, { paths, now, check: true });
      for (let n = 1; n <= ROUNDS; n++) {
        history.add(`round ${n}`, await site.round(n));
        now += 3_600_000;
        previous = await startsAgree(site, history.describe, {
          paths: servedSoFar(previous, paths),
          now,
          previous,
          check: n % 3 === 0,
        });
      }
    } finally {
      await removeSite(site.root);
    }
  });

  it(`after the server was killed (SIGKILL) at a random moment of its start-up, ${KILLS} times`, {
    timeout: 120_000,
  }, async (t) => {
    if (!HAS_GIT) return t.skip("no git here");
    const r = randomness(SEED + 1);
    const site = await createSite(r);
    const history = new History();
    const paths = new Set<string>();
    try {
      let now = Date.UTC(2026, 6, 1);
      let previous = await startsAgree(site, history.describe, { paths, now });
      /** How long a start-up takes here, measured by the first (killed once it listens). */
      let startup: number | undefined;
      for (let n = 1; n <= KILLS; n++) {
        const ops = await site.round(n);
        // From a third of the way (the runtime's own boot and imports come first) to a
        // little after it listens (what a start-up writes behind its first answer).
        const delay = startup === undefined
          ? undefined
          : Math.round(startup / 3 + r.int(Math.ceil(startup)));
        const { listened, after } = await killedStart(site.config, delay);
        startup ??= listened;
        ops.push(
          delay === undefined
            ? `the server (${OWN_RUNTIME}) killed once it listened, ${after} ms after its spawn`
            : `the server (${OWN_RUNTIME}) killed ${after} ms after its spawn (${
              listened === undefined ? "before it listened" : `it listened at ${listened} ms`
            })`,
        );
        if (process.env.RESTART_VERBOSE) console.error(ops.at(-1));
        history.add(`kill ${n}`, ops);
        now += 3_600_000;
        previous = await startsAgree(site, history.describe, {
          paths: servedSoFar(previous, paths),
          now,
          previous,
        });
      }
    } finally {
      await removeSite(site.root);
    }
  });
});

describe("the derivation cache's store (SPEC 17)", () => {
  it("reads a part's rows when it is first asked for, once; a store closed by then gives none", () => {
    const db = new DatabaseSync(":memory:");
    const cache = derivationTables(db);
    const key = { version: "v1", root: "/site", plugins: { docs: "print" } };
    const row = (file: string) => ["docs", file, 1, 2, 3] as unknown as CachedFileRow;
    const put = (part: number, ...files: string[]) =>
      cache.write({ parts: new Map([[part, { upsert: files.map(row), remove: [] }]]) });
    cache.open(key);
    put(3, "a.md");
    put(9, "b.md");
    const opened = cache.open(key);
    assert.equal(opened.parts.length, 2);
    // Written after the open and before the part is asked for: the part is read when asked.
    put(3, "c.md");
    const first = opened.parts[0]();
    assert.deepEqual(first.map((r) => r[1]).sort(), ["a.md", "c.md"]);
    put(3, "d.md");
    assert.equal(opened.parts[0](), first, "read once");
    const again = cache.open(key);
    db.close();
    assert.deepEqual(
      again.parts[1](),
      [],
      "the files of a part that cannot be read are derived again",
    );
  });
});
