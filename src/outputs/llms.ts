import type { Index } from "../index/build.ts";
import type { Item } from "../index/item.ts";
import { absoluteUrl } from "../util/url.ts";
import { markdownUrl } from "./markdown.ts";

/** A plugin's name as an `llms.txt` section heading. */
const SECTION: Record<string, string> = {
  academy: "Academy",
  blog: "Blog",
  docs: "Docs",
  faq: "FAQ",
  pages: "Pages",
};

/** One line of text: line breaks in a title or description would break the list's format. */
const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

/**
 * `/llms.txt` (SPEC 14, the llmstxt.org format): `# {title}` (the config's
 * title, else the host), `> {description}` when the config has one, then a
 * `## {Plugin}` section per enabled content plugin listing
 * `- [{title}]({the item's .md URL}): {description}` for each feed item in
 * feed order.
 *
 * @param host the site's name when the config has no title
 *
 * @example
 * ```ts
 * import { renderLlmsTxt } from "./llms.ts";
 * declare const index: import("../index/build.ts").Index;
 * renderLlmsTxt(index, "https://example.com", "example.com");
 * // "# Example Docs\n\n> Docs for X\n\n## Docs\n\n- [Intro](https://example.com/docs/intro.md): …\n"
 * ```
 */
export function renderLlmsTxt(index: Index, base: string, host: string): string {
  const { title, description } = index.settings;
  let out = `# ${oneLine(title ?? host)}\n`;
  if (description) out += `\n> ${oneLine(description)}\n`;
  for (const plugin of index.settings.plugins) {
    out += `\n## ${SECTION[plugin.name] ?? plugin.name}\n\n`;
    for (const item of index.lists.type.get(plugin.name) ?? []) {
      const link = `[${oneLine(item.title).replace(/[\[\]]/g, "\\$&")}](${
        markdownUrl(item, base)
      })`;
      const description = oneLine(item.description);
      out += `- ${link}${description ? `: ${description}` : ""}\n`;
    }
  }
  return out;
}

/**
 * Part of `/llms-full.txt` (SPEC 14): each item's Markdown, each under
 * `# {title}` and a `Source: {url}` line, followed by a blank line. The
 * whole file is every feed item's part in feed order; the caller writes it
 * a run of items at a time, so that never every body is held at once.
 *
 * @param bodyOf each item's body (the caller reads them)
 *
 * @example
 * ```ts
 * import { renderLlmsFull } from "./llms.ts";
 * declare const index: import("../index/build.ts").Index;
 * renderLlmsFull(index.feed, "https://example.com", (item) => item.body ?? "");
 * // "# Intro\n\nSource: https://example.com/docs/intro\n\nHello.\n\n"
 * ```
 */
export function renderLlmsFull(
  items: readonly Item[],
  base: string,
  bodyOf: (item: Item) => string,
): string {
  let out = "";
  for (const item of items) {
    out += `# ${oneLine(item.title)}\n\nSource: ${absoluteUrl(item.url, base)}\n\n${
      bodyOf(item).trim()
    }\n\n`;
  }
  return out;
}
