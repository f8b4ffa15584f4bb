// The MCP server's resources (SPEC 14): every served item, its link as the
// URI, listed a page at a time, read as its Markdown form.
import type { Item } from "../index/item.ts";
import type { Answered, ToolBackend } from "./mcp_tools.ts";

/** Resources one `resources/list` page holds at most. */
export const RESOURCE_PAGE = 100;

/** A resource as `resources/list` describes it. */
export interface ResourceEntry {
  /** What the protocol's `Resource` may hold beside these. */
  [key: string]: unknown;
  /** The item's `link` (its `.json` URL), as the feed gives it. */
  readonly uri: string;
  /** The item's id (what the tools take). */
  readonly name: string;
  /** The item's title. */
  readonly title: string;
  /** The item's description, when it has one. */
  readonly description?: string;
  /** What reading it gives: the Markdown form. */
  readonly mimeType: "text/markdown";
  /** Midnight UTC of the item's `last_update`. */
  readonly annotations: { readonly lastModified: string };
}

/** A resource template as `resources/templates/list` describes it. */
export interface ResourceTemplate {
  /** An RFC 6570 template of the resources' URIs. */
  readonly uriTemplate: string;
  /** Its name. */
  readonly name: string;
  /** Its title. */
  readonly title: string;
  /** What it names and what reading it gives. */
  readonly description: string;
  /** What reading a resource of it gives. */
  readonly mimeType: "text/markdown";
}

/** What a resource's contents are: its Markdown form. */
const MARKDOWN = "text/markdown" as const;

/** An item's `link` as the feed writes it (`index/item_fields.ts`). */
const linkOf = (item: Item, base: string) => `${base}/${item.type}/${item.uri}.json`;

/** A page cursor: the `type/uri` key of the page's last resource, in base64url after a mark. */
const CURSOR_MARK = "after.";

function encodeCursor(key: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(key)) binary += String.fromCharCode(byte);
  return CURSOR_MARK + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The key a cursor holds, or `undefined` when it is none of this server's cursors. */
function decodeCursor(cursor: string): string | undefined {
  const encoded = cursor.slice(CURSOR_MARK.length);
  if (!cursor.startsWith(CURSOR_MARK) || !/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  try {
    const binary = atob(encoded.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The `count` smallest keys greater than `after`, in order: one pass, no
 * sort of the whole set (an index of 10,000 items costs a page of
 * insertions, not a sort per page).
 */
function firstAfter(keys: Iterable<string>, after: string | undefined, count: number): string[] {
  const best: string[] = [];
  for (const key of keys) {
    if (after !== undefined && key <= after) continue;
    if (best.length === count && key >= best[count - 1]) continue;
    let low = 0, high = best.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (best[middle] < key) low = middle + 1;
      else high = middle;
    }
    best.splice(low, 0, key);
    if (best.length > count) best.pop();
  }
  return best;
}

/**
 * One page of `resources/list`: every served item (the item routes'
 * items, the feed's and the unlisted ones), ordered by `type/uri`, at most
 * {@link RESOURCE_PAGE} a page, with `nextCursor` while more remain. A
 * cursor names the last key listed, so items added or removed while a
 * client pages never make it list one twice. A cursor that is not one of
 * these is `{ invalid }` (a `-32602` error).
 *
 * @example
 * ```ts
 * import { resourcePage } from "./mcp_resources.ts";
 * declare const backend: import("./mcp_tools.ts").ToolBackend;
 * const page = resourcePage(backend, undefined);
 * // { resources: [{ uri: "https://example.com/docs/intro.json", name: "docs_doc_intro", … }], nextCursor: "after.…" }
 * ```
 */
export function resourcePage(
  backend: ToolBackend,
  cursor: string | undefined,
  size = RESOURCE_PAGE,
): { resources: ResourceEntry[]; nextCursor?: string } | { invalid: string } {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && after === undefined) {
    return { invalid: "cursor is not one this server gave; list again without a cursor" };
  }
  const served = backend.served();
  const keys = firstAfter(served.keys(), after, size + 1);
  const page = keys.slice(0, size);
  const resources = page.map((key) => {
    const item = served.get(key)!;
    return {
      uri: linkOf(item, backend.base),
      name: item.id,
      title: item.title,
      ...(item.description ? { description: item.description } : {}),
      mimeType: MARKDOWN,
      annotations: { lastModified: `${item.last_update}T00:00:00Z` },
    };
  });
  return keys.length > size
    ? { resources, nextCursor: encodeCursor(page[page.length - 1]) }
    : { resources };
}

/**
 * The resource template of the item route: an item's link from its type
 * and uri (RFC 6570; `{+uri}` keeps the slashes of a nested uri).
 *
 * @example
 * ```ts
 * import { resourceTemplates } from "./mcp_resources.ts";
 * resourceTemplates("https://example.com")[0].uriTemplate;
 * // "https://example.com/{type}/{+uri}.json"
 * ```
 */
export function resourceTemplates(base: string): ResourceTemplate[] {
  return [{
    uriTemplate: `${base}/{type}/{+uri}.json`,
    name: "item",
    title: "An item of the site",
    description: "An item by its type and uri, as list_content gives them (its link); " +
      "reading it gives its Markdown under a small front matter.",
    mimeType: MARKDOWN,
  }];
}

/**
 * `resources/read`: the Markdown form of the served item a URI names (its
 * link, its `.md` URL or its page URL, on this site); `undefined` when it
 * names none, or the problem the route answered.
 *
 * @example
 * ```ts
 * import { readResource } from "./mcp_resources.ts";
 * declare const backend: import("./mcp_tools.ts").ToolBackend;
 * const read = await readResource(backend, "https://example.com/docs/intro.json");
 * ```
 */
export async function readResource(
  backend: ToolBackend,
  uri: string,
): Promise<Answered<{ contents: { uri: string; mimeType: string; text: string }[] }> | undefined> {
  const item = backend.find({ link: uri });
  if (!item) return undefined;
  const markdown = await backend.markdown(item);
  if (typeof markdown !== "string") return markdown;
  return { contents: [{ uri, mimeType: MARKDOWN, text: markdown }] };
}
