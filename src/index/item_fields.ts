// The one table of an item's fields (SPEC 6, 6.2, 7, 12): each field is
// one entry, and everything that lists fields derives from it: the names
// `include` and `fields` accept, the item writer, the OpenAPI schemas and
// the journal's change key. A new field is one entry here and the code that
// derives its value.
import type { Section } from "../text/sections.ts";
import { jsonStringBytes } from "../util/json_bytes.ts";
import { absoluteUrl } from "../util/url.ts";
import type { Item } from "./item.ts";

/** What a response holds of an item beyond the index: its body, and what is made of it. */
export interface ItemExtras {
  /** The Markdown body without front matter (SPEC 6.2 `body`). */
  readonly body?: string;
  /**
   * The body as a range of its file's bytes, `[bytes, start, end)`: written
   * as a JSON string straight from them, where `body` would be decoded,
   * escaped and encoded.
   */
  readonly bodyBytes?: readonly [Uint8Array, number, number];
  /** Its plain text (SPEC 13). */
  readonly text?: string;
  /** Its sections (SPEC 13). */
  readonly sections?: readonly Section[];
}

/** What a field's value needs of the item's file, beyond what the index holds. */
export type FileNeed = "body" | "text" | "sections";

/** The enabled values an OpenAPI schema lists (the index's types and categories). */
export interface Vocabulary {
  readonly types: readonly string[];
  readonly categories: readonly string[];
}

/** How a field is fed to the change key's hash (`sync/change_key.ts`). */
export interface KeyMixer {
  /** A text, or null (told apart from every text). */
  text(value: string | null): void;
  /** The length of a list, with a code of its own per list (told apart from every text). */
  list(code: number, length: number): void;
}

/** A seed field of a feed item (SPEC 6): the table's entries of kind `seed`. */
export type SeedField =
  | "id"
  | "checksum"
  | "type"
  | "category"
  | "uri"
  | "link"
  | "image"
  | "title"
  | "description"
  | "authors"
  | "tags"
  | "date"
  | "last_update"
  | "time";
/** An opt-in field (SPEC 6.2, 16.3): the table's entries of kind `opt-in`. */
export type IncludeField =
  | "url"
  | "body"
  | "text"
  | "sections"
  | "lang"
  | "version"
  | "variant_of";
/** A field of a feed item. */
export type ItemField = SeedField | IncludeField;
/** Any field of the table: a feed item's, or one only the item's JSON form holds (SPEC 7). */
export type AnyField = ItemField | "parent" | "children";

/** One field of an item. */
export interface FieldSpec<Name extends string = string> {
  readonly name: Name;
  /**
   * `seed`: in every feed item unless `fields` narrows them (SPEC 6);
   * `opt-in`: added by `include` or named in `fields` (SPEC 6.2); `form`:
   * only in the item's JSON form (SPEC 7).
   */
  readonly kind: "seed" | "opt-in" | "form";
  /** What its value needs of the file (read again per request): none for most. */
  readonly needs?: FileNeed;
  /**
   * Its value as JSON, with `base` for the URLs the index keeps relative.
   *
   * @throws {TypeError} when it needs an extra that `extras` lacks
   */
  readonly json: (item: Item, base: string, extras: ItemExtras) => string;
  /** Its OpenAPI schema in the feed's `Item`. */
  readonly schema: (vocabulary: Vocabulary) => Record<string, unknown>;
  /** Its OpenAPI schema in the item form's `ItemDetail`, where it differs from `schema`. */
  readonly formSchema?: Record<string, unknown>;
  /**
   * How it takes part in the change key (SPEC 12: every field of the feed
   * item but a tag's count, as the index holds it); absent: it does not.
   */
  readonly key?: (mix: KeyMixer, item: Item) => void;
}

const q = JSON.stringify;
const decoder = new TextDecoder();
const DAY = { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$" };
const STRING = { type: "string" };

/** What a field needs that `extras` lacks. */
function missing(item: Item, field: string): never {
  throw new TypeError(`${item.id}: no ${field} given`);
}

/** A field of the item that is a text, hashed as it is. */
function text(name: SeedField & keyof Item, schema: FieldSpec["schema"]): FieldSpec<AnyField> {
  return {
    name,
    kind: "seed",
    json: (item) => q(item[name]),
    schema,
    key: (mix, item) => mix.text(item[name] as string),
  };
}

/**
 * A field of SPEC 16.3 (`lang`, `version`, `variant_of`): in the change key
 * only when set, after a code of its own, so a site without locales or
 * versions keeps every key it had.
 */
function variantField(
  name: "lang" | "version" | "variant_of",
  code: number,
  schema: Record<string, unknown>,
): FieldSpec<AnyField> {
  return {
    name,
    kind: "opt-in",
    json: (item) => q(item[name]),
    schema: () => schema,
    key: (mix, item) => {
      const value = item[name];
      if (value === null) return;
      mix.list(code, 0);
      mix.text(value);
    },
  };
}

/** Sections as the `sections` field holds them: each section's fields in order, nothing else. */
function sectionsJson(sections: readonly Section[]): string {
  return q(sections.map((s) => ({
    anchor: s.anchor,
    heading: s.heading,
    path: s.path,
    level: s.level,
    text: s.text,
    checksum: s.checksum,
  })));
}

/**
 * Every field an item may hold, in canonical order: the seed's (SPEC 6,
 * in the seed's order), then the opt-in ones in the order `include` adds
 * them (SPEC 6.2), then those only the item's JSON form holds (SPEC 7).
 */
export const FIELD_TABLE: readonly FieldSpec<AnyField>[] = [
  text("id", () => ({ type: "string", pattern: "^[a-z0-9_-]+$" })),
  text("checksum", () => ({
    type: "string",
    pattern: "^[0-9a-f]{64}$",
    description: "SHA-256 of the source file",
  })),
  text("type", (v) => ({ type: "string", enum: v.types })),
  text("category", (v) => ({ type: "string", enum: v.categories })),
  text("uri", () => STRING),
  {
    name: "link",
    kind: "seed",
    json: (item, base) => q(`${base}/${item.type}/${item.uri}.json`),
    schema: () => ({ type: "string", format: "uri" }),
  },
  {
    name: "image",
    kind: "seed",
    json: (item, base) => q(item.image === null ? null : absoluteUrl(item.image, base)),
    schema: () => ({ type: ["string", "null"] }),
    key: (mix, item) => mix.text(item.image),
  },
  text("title", () => STRING),
  text("description", () => STRING),
  {
    name: "authors",
    kind: "seed",
    json: (item) => q(item.authors.map(({ name, slug }) => ({ name, slug }))),
    schema: () => ({ type: "array", items: { $ref: "#/components/schemas/Author" } }),
    key: (mix, item) => {
      mix.list(0x2_0000, item.authors.length);
      for (const author of item.authors) {
        mix.text(author.name);
        mix.text(author.slug);
      }
    },
  },
  {
    name: "tags",
    kind: "seed",
    json: (item) => q(item.tags.map(({ name, slug, count }) => ({ name, slug, count }))),
    schema: () => ({ type: "array", items: { $ref: "#/components/schemas/Tag" } }),
    // A tag's count is the site's, not the item's: it is not part of the key.
    key: (mix, item) => {
      mix.list(0x3_0000, item.tags.length);
      for (const tag of item.tags) {
        mix.text(tag.name);
        mix.text(tag.slug);
      }
    },
  },
  text("date", () => DAY),
  text("last_update", () => DAY),
  {
    name: "time",
    kind: "seed",
    json: (item) => String(item.time),
    schema: () => ({ type: "integer", minimum: 0, description: "reading time in minutes" }),
    key: (mix, item) => mix.text(String(item.time)),
  },
  {
    name: "url",
    kind: "opt-in",
    json: (item, base) => q(absoluteUrl(item.url, base)),
    schema: () => ({ type: "string", format: "uri", description: "the item's page on the site" }),
    key: (mix, item) => mix.text(item.url),
  },
  {
    name: "body",
    kind: "opt-in",
    needs: "body",
    json: (item, _base, extras) => {
      if (extras.body !== undefined) return q(extras.body);
      if (extras.bodyBytes !== undefined) {
        return decoder.decode(jsonStringBytes(...extras.bodyBytes));
      }
      return missing(item, "body");
    },
    schema: () => ({ type: "string", description: "the Markdown body, without front matter" }),
    formSchema: STRING,
  },
  {
    name: "text",
    kind: "opt-in",
    needs: "text",
    json: (item, _base, extras) => q(extras.text ?? missing(item, "text")),
    schema: () => ({
      type: "string",
      description: "the body's plain text, paragraphs a blank line apart",
    }),
  },
  {
    name: "sections",
    kind: "opt-in",
    needs: "sections",
    json: (item, _base, extras) => sectionsJson(extras.sections ?? missing(item, "sections")),
    schema: () => ({
      type: "array",
      description: "the body split at headings of levels 1-3",
      items: { $ref: "#/components/schemas/Section" },
    }),
  },
  variantField("lang", 0x4_0000, {
    type: ["string", "null"],
    description: "the item's locale (BCP 47), null where the site has none",
  }),
  variantField("version", 0x5_0000, {
    type: ["string", "null"],
    description: "the item's version, null where the site has none",
  }),
  variantField("variant_of", 0x6_0000, {
    type: ["string", "null"],
    description: "the id of the same page in the default locale and version; null for that one",
  }),
  {
    name: "parent",
    kind: "form",
    json: (item) => q(item.parent),
    schema: () => ({ type: ["string", "null"] }),
  },
  {
    name: "children",
    kind: "form",
    json: (item) => q(item.children),
    schema: () => ({ type: "array", items: STRING }),
  },
];

/** The seed's fields of a feed item, in their order (SPEC 6). */
export const SEED_FIELDS: readonly SeedField[] = namesOf("seed");
/** The opt-in fields `include` may add, in the order they are added (SPEC 6.2). */
export const INCLUDE_FIELDS: readonly IncludeField[] = namesOf("opt-in");
/** Every field a feed item may hold, in canonical order: the seed's, then the opt-in ones. */
export const ITEM_FIELDS: readonly ItemField[] = [...SEED_FIELDS, ...INCLUDE_FIELDS];

/** The table's entry of a field, by name. */
export const FIELDS: ReadonlyMap<AnyField, FieldSpec<AnyField>> = new Map(
  FIELD_TABLE.map((spec) => [spec.name, spec as FieldSpec<AnyField>]),
);

function namesOf<N extends AnyField>(kind: FieldSpec["kind"]): N[] {
  return FIELD_TABLE.filter((spec) => spec.kind === kind).map((spec) => spec.name as N);
}
