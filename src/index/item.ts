/** A tag as served: name, slug and how many feed items across the site carry it. */
export interface Tag {
  /** The tag as the content writes it. */
  readonly name: string;
  /** `slugify(name)`: what the `tag` filter compares. */
  readonly slug: string;
  /** Feed-eligible items across the site that carry a tag with this slug. */
  readonly count: number;
}

/**
 * One served item of the index: the feed fields (SPEC 6, in the seed's order
 * when rendered), what the item's JSON form adds, and what filters use.
 * Drafts never become an `Item`.
 */
export interface Item {
  /** `<type>_<category>_<uri with "/" as "_">`. */
  readonly id: string;
  /** SHA-256 of the source file's bytes, lowercase hex. */
  readonly checksum: string;
  /** The plugin's type. */
  readonly type: string;
  /** The plugin's category at the item's depth. */
  readonly category: string;
  /** The slugs of the item's ancestors and its own, joined with `/`. */
  readonly uri: string;
  /**
   * The item's page on the site (SPEC 4 `url`), root-relative (made absolute
   * with the base URL when rendered) or absolute: front matter `permalink`,
   * else the plugin's pattern, else `/<type>/<uri>`.
   */
  readonly url: string;
  /** Front matter image as written; made absolute with the base URL when root-relative. */
  readonly image: string | null;
  /** Front matter `title`, else the first level-1 heading, else the file name (SPEC 4). */
  readonly title: string;
  /** Front matter `description` or `summary`, else a preview of the body. */
  readonly description: string;
  /** `[{name, slug}]`; Anonymous when the file names none. */
  readonly authors: readonly { readonly name: string; readonly slug: string }[];
  /** `[{name, slug, count}]`. */
  readonly tags: readonly Tag[];
  /** `YYYY-MM-DD`, UTC. */
  readonly date: string;
  /** `YYYY-MM-DD`, UTC. */
  readonly last_update: string;
  /** Reading time in whole minutes (an academy module's or course's: the sum of its children's). */
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
  /** Front matter `indexable` when boolean, else not draft, unlisted or deprecated, and a body of 100 characters. */
  readonly indexable: boolean;
  /** Front matter `searchable` when boolean, else not draft, unlisted or deprecated. */
  readonly searchable: boolean;
  /** In the feed: not a draft, a non-empty body, indexable (SPEC 5). */
  readonly eligible: boolean;
  /** The source file, relative to the content root. */
  readonly file: string;
  /** Its locale, a BCP 47 tag from `locales` (SPEC 16.3); `null` where the site has none. */
  readonly lang: string | null;
  /** Its version's name (SPEC 16.3); `null` where the site has none. */
  readonly version: string | null;
  /**
   * The id the same page has, or would have, in the default variant (the
   * default locale, the version published at the plugin's route); `null`
   * for an item of the default variant (SPEC 16.3).
   */
  readonly variant_of: string | null;
}
