// Shared test helpers: real files in temporary folders, requests through fetch(Request).
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import process from "node:process";
import { cp, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { ContentApi, ContentApiOptions, Logger } from "../mod.ts";
import type { Handler } from "../src/http/handler.ts";
import type { Tuning } from "../src/http/settings.ts";
import { createService } from "../src/service.ts";

/** Files to write, by path relative to the site folder. */
export type SiteFiles = Record<string, string | Uint8Array>;

/** The default services.yaml of a test site: every plugin and every output. */
export const ALL_PLUGINS = `parameters:
  service.content.config:
    url: https://example.com
    plugins:
      academy: ~
      blog: ~
      docs: ~
      faq: ~
      pages: ~
      api: ~
      sitemap: ~
      llms: ~
      feed: ~
      mcp: ~
`;

/** Writes files into a new temporary folder and returns its path. */
export async function writeSite(files: SiteFiles): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "content-feed-"));
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, path);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
  return root;
}

/** Removes a temporary site. */
export async function removeSite(root: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
}

/** A logger that keeps every line, for assertions on warnings. */
export function memoryLogger(): Logger & {
  lines: { level: string; message: string }[];
  warnings(): string[];
} {
  const lines: { level: string; message: string }[] = [];
  return {
    lines,
    info: (message) => lines.push({ level: "info", message }),
    warn: (message) => lines.push({ level: "warn", message }),
    error: (message) => lines.push({ level: "error", message }),
    warnings: () => lines.filter((l) => l.level === "warn").map((l) => l.message),
  };
}

/** A site ready to query: the api, its log, its folder. */
export interface TestSite {
  root: string;
  api: ContentApi;
  /** The handler as the runtime adapters serve it: a ready answer without a promise. */
  handle: Handler;
  log: ReturnType<typeof memoryLogger>;
  /** GET (or another method) a path; returns the response. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** GET a path and parse the JSON body, asserting nothing. */
  // deno-lint-ignore no-explicit-any
  json(path: string, init?: RequestInit): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * Writes `files` (plus `services.yaml` = `config` unless files has one) to a
 * temporary folder and starts the api on it with a fixed clock. `prepare(root)`
 * runs before the first load, for what writeFile cannot make (links, permissions).
 */
export async function site(
  files: SiteFiles,
  options: SiteOptions = {},
): Promise<TestSite> {
  const root = await writeSite({ "services.yaml": options.config ?? ALL_PLUGINS, ...files });
  try {
    await options.prepare?.(root);
    const s = await serviceOn(root, options);
    return { ...s, close: () => s.close().then(() => removeSite(root)) };
  } catch (error) {
    await removeSite(root);
    throw error;
  }
}

/** Options of {@link site} and {@link serviceOn}. */
export type SiteOptions = Omit<ContentApiOptions, "config"> & {
  config?: string;
  prepare?: (root: string) => Promise<void>;
  /** The runtime tuning an adapter would give (`src/adapters/`). */
  tuning?: Tuning;
};

/**
 * Another service on a site's folder (its `services.yaml`), with a fixed
 * clock: it shares the folder's files and its journal file (which one
 * service holds at a time: a second one while the first is open keeps a
 * journal of its own in memory). `close` stops it and leaves the folder.
 */
export async function serviceOn(root: string, options: SiteOptions = {}): Promise<TestSite> {
  const { prepare: _prepare, tuning, config: _config, ...apiOptions } = options;
  const log = memoryLogger();
  const { api, handle } = await createService({
    now: () => Date.UTC(2026, 10, 21, 9, 15, 2),
    logger: log,
    ...apiOptions,
    config: join(root, "services.yaml"),
  }, tuning);
  const origin = "http://localhost:8000";
  const request = (path: string, init?: RequestInit) => api.fetch(new Request(origin + path, init));
  return {
    root,
    api,
    handle,
    log,
    request,
    async json(path, init) {
      const response = await request(path, init);
      const text = await response.text();
      return {
        status: response.status,
        body: text ? JSON.parse(text) : undefined,
        headers: response.headers,
      };
    },
    close: () => Promise.resolve(api.close()),
  };
}

/**
 * Copies a site's folder, its journal included, to a new temporary folder
 * (returned): the copy's journal has the same id and the same changes. Take
 * it while no service writes the journal (a service between reloads).
 */
export async function copySite(root: string): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), "content-feed-"));
  await cp(root, copy, { recursive: true, preserveTimestamps: true });
  await keepMilliseconds(root, copy);
  return copy;
}

/**
 * Gives each file under `copy` the whole millisecond of its modification
 * time under `root`, which dates and orders items. `cp`'s
 * `preserveTimestamps` under Node passes the time as seconds in a double:
 * `.550` arrives as `.549999952`, a millisecond early, and two files written
 * a millisecond apart then order alike in the copy (a flaky test). Half a
 * millisecond past the whole one survives that rounding.
 */
async function keepMilliseconds(root: string, copy: string): Promise<void> {
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const from = join(root, entry.name);
    const to = join(copy, entry.name);
    if (entry.isDirectory()) await keepMilliseconds(from, to);
    else if (entry.isFile()) {
      const { atimeMs, mtimeMs } = await stat(from);
      await utimes(to, atimeMs / 1000, (Math.floor(mtimeMs) + 0.5) / 1000);
    }
  }
}

/**
 * A service on a copy of a site's folder, its journal included: another
 * instance with the same files and the same journal, as replicas have (two
 * services cannot write one journal file). `close` stops it and removes the copy.
 */
export async function replicaOf(root: string, options: SiteOptions = {}): Promise<TestSite> {
  const copy = await copySite(root);
  try {
    const s = await serviceOn(copy, options);
    return { ...s, close: () => s.close().then(() => removeSite(copy)) };
  } catch (error) {
    await removeSite(copy);
    throw error;
  }
}

/** A Markdown file from front matter (as YAML text or an object) and a body. */
export function md(front: Record<string, unknown> | string | undefined, body = ""): string {
  if (front === undefined) return body;
  const yaml = typeof front === "string" ? front : Object.entries(front)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join("\n");
  return `---\n${yaml}\n---\n${body}`;
}

/** A body long enough (≥ 100 characters) to be indexable by default. */
export const LONG =
  "This body is long enough to be indexable by default, since the rule asks for at least " +
  "one hundred characters of text.";

/** A services.yaml enabling `plugins` (content plugins, api, sitemap), with an optional url. */
export function configFor(plugins: string[], url?: string): string {
  return [
    "parameters:",
    "  service.content.config:",
    ...(url === undefined ? [] : [`    url: ${JSON.stringify(url)}`]),
    "    plugins:",
    ...plugins.map((p) => `      ${p}: ~`),
    "",
  ].join("\n");
}

/** A site of `count` docs (three folders, tags, some with dates) and a blog post. */
export function docsSite(count: number): Record<string, string> {
  const out: Record<string, string> = {
    "services.yaml": configFor(["docs", "blog", "api", "sitemap"], "https://example.com"),
    "blog/2024-05-06-hello.md": md({ title: "Hello", tags: ["news"] }, LONG),
  };
  for (let i = 0; i < count; i++) {
    const front: Record<string, unknown> = { title: `Doc ${i}`, tags: [`t${i % 4}`] };
    if (i % 3 === 0) front.date = "2023-01-0" + (1 + (i % 9));
    out[`docs/s${i % 3}/doc-${i}.md`] = md(front, `${LONG} Number ${i}.`);
  }
  return out;
}

/** Runs `fn` on a fresh site and always removes its folder. */
export async function withSite(
  files: SiteFiles,
  options: Parameters<typeof site>[1],
  fn: (s: TestSite) => void | Promise<void>,
): Promise<void> {
  const s = await site(files, options);
  try {
    await fn(s);
  } finally {
    await s.close();
  }
}

/** The fields of a feed item, in the seed's order (SPEC 6). */
export const FEED_KEYS = [
  "id",
  "checksum",
  "type",
  "category",
  "uri",
  "link",
  "image",
  "title",
  "description",
  "authors",
  "tags",
  "date",
  "last_update",
  "time",
];

/** SHA-256 of text or bytes as lowercase hex, from node:crypto (not the code under test). */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Whether a `git` executable runs here (tests of git dates skip without one). */
export const HAS_GIT: boolean = spawnSync("git", ["--version"]).status === 0;

/**
 * Runs `git` in `cwd` as a fixed author, without the user's or the system's
 * git config, and with `date` (ISO) as author and committer date when given,
 * so the expected commit dates are known. Returns what it printed.
 */
export function git(cwd: string, args: string[], date?: string): string {
  return execFileSync("git", args, {
    cwd,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@example.com",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@example.com",
      ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}),
    },
  });
}

/** A site with one file for each reason a file or an item stays out of the feed. */
export function troubledSite(): SiteFiles {
  const config = `parameters:
  service.content.config:
    url: https://example.com
    git: false
    max_file_size: 2KB
    plugins:
      academy: ~
      blog: ~
      docs: { orphans: skip }
      api: ~
`;
  return {
    "services.yaml": config,
    "docs/good.md": md({ title: "Good" }, LONG),
    "docs/draft.md": md({ title: "Draft", draft: true }, LONG),
    "docs/draft/child.md": md({ title: "Under a draft" }, LONG),
    "docs/unlisted.md": md({ title: "Unlisted", unlisted: true }, LONG),
    "docs/deprecated.md": md({ title: "Old", deprecated: "2025-01-01" }, LONG),
    "docs/empty.md": md({ title: "Empty" }, ""),
    "docs/short.md": md({ title: "Short" }, "Too short."),
    "docs/hidden.md": md({ title: "Hidden", indexable: false }, LONG),
    "docs/loose/one.md": md({ title: "In a folder without its own file" }, LONG),
    "docs/loose/two.md": md({ title: "Another" }, LONG),
    "docs/twin.md": md({ title: "Twin" }, LONG),
    "docs/twin.mdx": md({ title: "Twin again" }, LONG),
    "docs/broken.md": "---\ntitle: [unclosed\n---\nBody.\n",
    "docs/binary.md": new Uint8Array([0x2d, 0x2d, 0x00, 0x01]),
    "docs/huge.md": md({ title: "Huge" }, "x ".repeat(2000)),
    "docs/picture.png": new Uint8Array([0x89, 0x50]),
    "docs/notes.txt": "not content",
    "academy/c.md": md({ title: "Course" }, LONG),
    "academy/c/m.md": md({ title: "Module" }, LONG),
    "academy/c/m/l.md": md({ title: "Lesson" }, LONG),
    "academy/c/m/l/too-deep.md": md({ title: "Too deep" }, LONG),
    "blog/2026-01-01-hello.md": md({ title: "Hello" }, LONG),
  };
}

/**
 * A fuzz test's text: one to `most` + 1 of `pieces`, each picked with
 * `random` (a seeded `mulberry32`, so a failure repeats).
 */
export function piecesText(random: () => number, pieces: readonly string[], most: number): string {
  let text = "";
  for (let n = Math.floor(random() * most); n >= 0; n--) {
    text += pieces[Math.floor(random() * pieces.length)];
  }
  return text;
}

/** Waits up to 2 s (SPEC 10: a change is served within 2 seconds) for `check`, polling. */
export async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < 2000) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.fail(`${what} was not visible within 2 s`);
}
