import type { NotIndexable } from "../fields/derive.ts";
import type { IndexedFile } from "../fields/indexed_file.ts";
import type { Index } from "../index/build.ts";
import { indexExclusions } from "../index/exclusions.ts";
import type { Loaded, PluginSelection } from "../source/loader.ts";
import type { LeftOutReason } from "../source/parsed_file.ts";
import { compareText } from "../util/compare.ts";

/** Why a file or an item is not in the feed (SPEC 15's reasons, and SPEC 16.4's partials). */
export type ExclusionReason = LeftOutReason | NotIndexable | "partial" | "not a page";

/** A file left out, or an item kept out of the feed, and why. */
export interface Exclusion {
  /** The content plugin that selected the file. */
  readonly plugin: string;
  /** The file, relative to the content root (as warnings name it). */
  readonly file: string;
  /** Why, as decided where it was: the listing, the read, the parse, the tree, the fields. */
  readonly reason: ExclusionReason;
  /**
   * How far it got: `source` (no item: it could not be read or parsed, or
   * the listing left it out), `tree` (an item that no route serves), `feed`
   * (an item the item routes serve, not in the feed).
   */
  readonly stage: "source" | "tree" | "feed";
  /** The file or folder that hides it, when it is left out for being below one (a draft, an orphan folder). */
  readonly hiddenBy?: string;
}

/** Every file and item a build left out, and what the listing counted (`check`, SPEC 15). */
export interface Exclusions {
  /** Every file left out and every item kept out of the feed: plugins in config order, files in path order. */
  readonly files: readonly Exclusion[];
  /** Per plugin, in config order: the files it selects and those its include globs skip. */
  readonly selection: readonly PluginSelection[];
}

/**
 * The exclusions of a build: the files the load left out (with the
 * reason the listing, the read or the parse gave) and the files whose items
 * the index does not serve or keeps out of the feed (with the tree's and
 * the fields' reasons).
 *
 * @example
 * ```ts
 * import { exclusionsOf } from "./exclusions.ts";
 * declare const loaded: import("../source/loader.ts").Loaded<import("../fields/indexed_file.ts").IndexedFile>;
 * declare const index: import("../index/build.ts").Index;
 * exclusionsOf(loaded, index).files.filter((e) => e.reason === "draft");
 * ```
 */
export function exclusionsOf(loaded: Loaded<IndexedFile>, index: Index): Exclusions {
  const files: Exclusion[] = [];
  for (const { plugin, excluded } of indexExclusions(index)) {
    const own: Exclusion[] = [];
    for (const left of loaded.leftOut) {
      if (left.plugin === plugin) own.push({ ...left, stage: "source" });
    }
    for (const exclusion of excluded) own.push({ plugin, ...exclusion });
    files.push(...own.sort((a, b) => compareText(a.file, b.file)));
  }
  return { files, selection: loaded.selection };
}
