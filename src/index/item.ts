import type { NameSlug } from "../fields/names.ts";

/** A tag as served: name, slug and how many feed items across the site carry it. */
export interface Tag extends NameSlug {
  readonly count: number;
}

/**
 * One served item of the index: the feed fields (SPEC 6, in the seed's order
 * when rendered), what the item's JSON form adds, and what filters use.
 * Drafts never become an `Item`.
 */
export interface Item {
  readonly id: string;
  readonly checksum: string;
  readonly type: string;
  readonly category: string;
  readonly uri: string;
  /** Front matter image as written; made absolute with the base URL when root-relative. */
  readonly image: string | null;
  readonly title: string;
  readonly description: string;
  readonly authors: readonly NameSlug[];
  readonly tags: readonly Tag[];
  readonly date: string;
  readonly last_update: string;
  readonly time: number;
  /**
   * The Markdown body when the index was built from files that kept it (a
   * snapshot, `buildIndex` on parsed files); `undefined` when the server's
   * loader let it go, and the item route reads it again from `file`.
   */
  readonly body: string | undefined;
  /** The parent's `id`, or `null`. */
  readonly parent: string | null;
  /** The `id`s of the children served by the item route. */
  readonly children: readonly string[];
  readonly indexable: boolean;
  readonly searchable: boolean;
  /** In the feed: not a draft, a non-empty body, indexable (SPEC 5). */
  readonly eligible: boolean;
  /** The source file, relative to the content root. */
  readonly file: string;
}
