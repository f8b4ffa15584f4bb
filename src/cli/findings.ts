// What a crawl of the site would see that the feed does not say (SPEC 16.5):
// two items with one url, root-relative links that reach no item, markup
// left in a text, files left out for a reason a site would not have.
import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import type { Exclusions } from "../pipeline/exclusions.ts";
import { parseBody } from "../source/parse.ts";
import { readCheckedBytes } from "../source/read_file.ts";
import { textBlocks } from "../text/blocks.ts";
import { htmlDocumentBlocks } from "../text/html_blocks.ts";
import { forEachConcurrently } from "../util/concurrency.ts";

/** One thing `check` found (SPEC 16.5). */
export interface Finding {
  /** What kind of finding. */
  readonly kind: "duplicate url" | "broken link" | "markup in text" | "left out";
  /** The file it is in, relative to the content root. */
  readonly file: string;
  /** The line of the file, where one can be named. */
  readonly line?: number;
  /** What was found: the url, the link's target, the markup with the text around it, the reason. */
  readonly detail: string;
}

/**
 * Markup that the plain text of a page should never hold: tags, admonition
 * and block fences, include and snippet markers, shortcodes, template tags,
 * alert markers, attribute lists (SPEC 16.4). Code blocks are not searched.
 */
const MARKUP =
  /<\/?[A-Za-z][\w.:-]*(?:\s[^<>]*)?\/?>|^\s*(?::::|\/\/\/|!!!|\?\?\?\+?)|\{\*.*?\*\}|--8<--|\{\{[<%]|\{%|\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]|\{:?\s*[.#][\w-]+[^{}]*\}|^\s*```/m;

const decoder = new TextDecoder();

/** Reasons a file is left out that a site would not leave it out for (drafts and globs aside). */
const UNEXPECTED = new Set([
  "invalid front matter",
  "not text",
  "too large",
  "not a regular file",
  "unreadable",
  "duplicate uri",
  "orphan folder",
  "too deep",
]);

/**
 * A link's target as it is compared with items' URLs: no fragment, query,
 * `.html` or trailing `/`, and a folder's `index` (a server answers
 * `/guide/` with `/guide/index.html`) folded into the folder.
 */
function normalized(target: string): string {
  return target.replace(/[#?].*$/, "").replace(/\.html$/, "").replace(/(^|\/)index$/, "$1")
    .replace(/\/+$/, "") || "/";
}

/**
 * The generators that write a page's root-relative links under the site's
 * base path (VitePress' `base`, Docusaurus' `baseUrl`: `/guide/x` on a site
 * at `/handbook/` is `/handbook/guide/x`); VitePress also reads a link to a
 * Markdown file (`/guide/x.md`) as its page. Elsewhere a link is a path from
 * the host's root, as written.
 */
const BASE_RELATIVE = new Set(["vitepress", "docusaurus"]);

/** Where a link of a page goes on the site: `base` is `site_url`'s path, without a trailing `/`. */
function linkTarget(target: string, generator: string | undefined, base: string): string {
  let path = target;
  if (generator === "vitepress") path = path.replace(/\.md(?=$|[#?])/, "");
  if (generator !== undefined && BASE_RELATIVE.has(generator) && base !== "") {
    const inside = path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}#`) ||
      path.startsWith(`${base}?`);
    if (!inside) path = base + path;
  }
  return normalized(path);
}

/** The path of an item's URL, normalized as links are. */
function pathOf(url: string): string {
  return normalized(url.startsWith("/") ? url : new URL(url).pathname);
}

/** Root-relative links a Markdown or HTML body writes outside code: `](/x)` and `href="/x"`. */
function linksOf(body: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  let fenced = false;
  body.split("\n").forEach((text, i) => {
    if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
    if (fenced) return;
    const unquoted = text.replace(/`[^`]*`/g, "");
    for (const match of unquoted.matchAll(/\]\((\/(?!\/)[^)\s]*)|href=["'](\/(?!\/)[^"']*)["']/g)) {
      found.push({ target: match[1] ?? match[2], line: i + 1 });
    }
  });
  return found;
}

/**
 * Every finding of SPEC 16.5 for an index and what its build left out:
 * items that share a url; root-relative links in the pages that resolve to
 * no item's url (each with its file and line); markup left in a page's
 * text (the 80 characters around it); files left out for a reason other
 * than draft, unlisted, partial or the configuration's globs. Bodies are
 * read again from `root`, 32 files at a time. `generators` names each
 * plugin type's generator: where it writes links under the site's base
 * path (VitePress, Docusaurus), they are read there.
 *
 * @example
 * ```ts
 * import { findings } from "./findings.ts";
 * import { contentPipeline } from "../pipeline/pipeline.ts";
 * import { loadConfigFile } from "../config/load.ts";
 * const config = await loadConfigFile("content/services.yaml");
 * const { index, exclusions } = await (await contentPipeline(config, { keepBody: false })).build();
 * (await findings(index, exclusions, config.root, config.maxFileSize)).length; // 0 for a clean site
 * ```
 */
export async function findings(
  index: Index,
  exclusions: Exclusions,
  root: string,
  maxFileSize: number,
  generators: Readonly<Record<string, string>> = {},
): Promise<Finding[]> {
  const found: Finding[] = [];
  const siteUrl = index.settings.siteUrl;
  const base = siteUrl ? new URL(siteUrl).pathname.replace(/\/+$/, "") : "";
  const urls = new Map<string, Item>();
  for (const item of index.items) {
    const path = pathOf(item.url);
    const other = urls.get(path);
    if (other && other.url === item.url) {
      found.push({
        kind: "duplicate url",
        file: item.file,
        detail: `${item.url} (as ${other.file})`,
      });
    }
    if (!other) urls.set(path, item);
  }
  const pages: Finding[][] = index.items.map(() => []);
  let next = 0;
  await forEachConcurrently(() => next < index.items.length ? next++ : undefined, async (at) => {
    const item = index.items[at];
    const bytes = await readCheckedBytes(`${root}/${item.file}`, item.checksum, maxFileSize);
    if (bytes === undefined) return;
    const body = parseBody(bytes);
    if (body === undefined) return;
    // Lines are the file's: those of the front matter come before the body's.
    const raw = decoder.decode(bytes);
    const before = raw.slice(0, Math.max(0, raw.indexOf(body.slice(0, 64)))).split("\n").length - 1;
    const own = pages[at];
    const generator = Object.hasOwn(generators, item.type) ? generators[item.type] : undefined;
    for (const { target, line } of linksOf(body)) {
      if (!urls.has(linkTarget(target, generator, base))) {
        own.push({ kind: "broken link", file: item.file, line: before + line, detail: target });
      }
    }
    if (!item.eligible) return;
    const blocks = /\.html?$/i.test(item.file) ? htmlDocumentBlocks(body) : textBlocks(body);
    // Inline code keeps its text, markup-like or not: `<Card />` in backticks is not a leak.
    const inlineCode = [...body.matchAll(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g)].map((m) => m[2]);
    for (const block of blocks) {
      if (block.kind === "code") continue;
      const match = MARKUP.exec(block.text);
      if (!match || inlineCode.some((code) => code.includes(match[0].trim()))) continue;
      // Markup the page writes as text (`&lt;Tabs&gt;`) is text on the site too.
      if (!body.includes(match[0].trim())) continue;
      const around = block.text.slice(Math.max(0, match.index - 30), match.index + 50);
      own.push({ kind: "markup in text", file: item.file, detail: around.replace(/\s+/g, " ") });
      break;
    }
  });
  for (const page of pages) found.push(...page);
  for (const exclusion of exclusions.files) {
    if (!UNEXPECTED.has(exclusion.reason)) continue;
    found.push({ kind: "left out", file: exclusion.file, detail: exclusion.reason });
  }
  return found;
}
