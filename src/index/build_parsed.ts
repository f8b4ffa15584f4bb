// An index from parsed files (SPEC 3–5): each derived first, keeping its
// body. The public `buildIndex`: for tools and tests that hold files'
// text; the server's pipeline builds from derived files (`build.ts`).
import { indexFile } from "../fields/index_file.ts";
import type { ParsedFile } from "../source/parsed_file.ts";
import { contentPath } from "../util/path.ts";
import { buildIndexFrom, type Index, type IndexSettings } from "./build.ts";

/**
 * Builds an {@link Index} (SPEC 3–5). Pure: the files come from disk or from
 * a snapshot, the clock comes in as `builtAt`, what an earlier build made
 * comes in as `previous`. A parsed file (with its front matter) has its
 * fields derived here and keeps its body; a file from the server's loader
 * comes with its fields, without a body.
 *
 * @example
 * ```ts
 * import { buildIndex } from "./build_parsed.ts";
 * const settings = {
 *   title: undefined, url: undefined, api: true, sitemap: false,
 *   plugins: [{ name: "docs", path: "docs" }],
 * };
 * const index = buildIndex([{
 *   plugin: "docs", path: "intro.md", checksum: "00", mtime: 0,
 *   attrs: { title: "Intro" }, body: "x".repeat(120),
 * }], settings, 0);
 * index.feed[0].id; // "docs_doc_intro"
 * const next = buildIndex([], settings, 1, { previous: index });
 * next.feed.length; // 0
 * ```
 */
export function buildIndex(
  files: readonly ParsedFile[],
  settings: IndexSettings,
  builtAt: number,
  options: { readonly previous?: Index } = {},
): Index {
  const prefixOf = new Map(settings.plugins.map((p) => [p.name, p.path]));
  const derived = files.map((file) =>
    indexFile(file, contentPath(prefixOf.get(file.plugin)!, file.path), { keepBody: true })
  );
  return buildIndexFrom(derived, settings, builtAt, options);
}
