import type { Item } from "../index/item.ts";
import type { Section } from "../text/sections.ts";
import { createPacer, forEachConcurrently, type Pacer } from "../util/concurrency.ts";
import { bodyRange, parseBody } from "../source/parse.ts";
import type { ItemExtras } from "../index/item_fields.ts";
import type { FileNeeds } from "../index/shape.ts";
import type { Gathered } from "./plan.ts";
import type { ReadBody } from "./search.ts";

/** The modules that make text and sections: loaded at the first text asked for. */
const textCode = () => import("../text/request_text.ts");

/** Reads an item's file again: its bytes, `undefined` when it changed since the index was built. */
export type ReadBytes = (item: Item) => Promise<Uint8Array | undefined>;

/** The bodies, plain texts and sections a service serves (SPEC 6.2, 13). */
export interface ItemTexts {
  /**
   * Reads what `wanted` asks for of each item, 32 files at a time, making
   * text and sections in slices of a few milliseconds with the event loop
   * free between them (one pacer for the whole call: the 32 share it).
   */
  gather(items: readonly Item[], wanted: FileNeeds): Promise<Gathered>;
}

/** Plain text and sections made from one file, kept by its checksum. */
interface Made {
  readonly text: string;
  readonly sections: readonly Section[];
  /** What it holds, in bytes (UTF-16), counted against the budget. */
  readonly size: number;
}

/**
 * The store of texts a service makes on request (SPEC 13: nothing at
 * start-up, nothing for requests that do not ask; what is made is kept by
 * file checksum). Bodies are read again from the files (`readBody`, which
 * checks each against its checksum) where the index does not hold them;
 * text and sections are kept, least recently used out, within `budget`
 * bytes, so the next response, and the next index after an edit, makes
 * only what changed. An item with more than `MAX_SECTIONS` (10,000) sections
 * has the rest folded into the last, and `warn` is told once per file
 * version (checksum).
 *
 * @example
 * ```ts
 * import { createItemTexts } from "./item_text.ts";
 * declare const items: readonly import("../index/item.ts").Item[];
 * const texts = createItemTexts(undefined); // an index that holds its bodies (a snapshot)
 * const { extras } = await texts.gather(items, { body: false, text: true, sections: true });
 * ```
 */
export function createItemTexts(
  readBody: ReadBody | undefined,
  budget = 32 * 1024 * 1024,
  readBytes?: ReadBytes,
  warn: (message: string) => void = () => {},
): ItemTexts {
  const made = new Map<string, Made>();
  /** What is being made, by checksum: a second request for it waits for the first. */
  const making = new Map<string, Promise<Made>>();
  /** Checksums of files already warned about (bounded: cleared when full). */
  const warned = new Set<string>();
  let held = 0;
  const keep = (checksum: string, value: Made) => {
    made.set(checksum, value);
    held += value.size;
    for (const [key, old] of made) {
      if (held <= budget || made.size === 1) break;
      made.delete(key);
      held -= old.size;
    }
  };
  const make = (item: Item, body: string, pace: Pacer): Promise<Made> | Made => {
    const known = made.get(item.checksum);
    if (known) {
      made.delete(item.checksum); // most recently used: to the end
      made.set(item.checksum, known);
      return known;
    }
    let pending = making.get(item.checksum);
    if (!pending) {
      pending = makeNew(item, body, pace).finally(() => making.delete(item.checksum));
      making.set(item.checksum, pending);
    }
    return pending;
  };
  const makeNew = async (item: Item, body: string, pace: Pacer): Promise<Made> => {
    // The text code (the Markdown parser) loads at the first text asked for, not at start-up.
    const { htmlDocumentBlocks, MAX_SECTIONS, plainTextPaced, readBlocksPaced, sectionsOf } =
      await textCode();
    const blocks = /\.html?$/i.test(item.file)
      ? htmlDocumentBlocks(body)
      : (await readBlocksPaced(body, pace)).blocks;
    const text = await plainTextPaced(blocks, pace);
    const sections = await sectionsOf(blocks, item.title, {
      pace,
      folded: (headings) => {
        if (warned.has(item.checksum)) return;
        if (warned.size >= 1024) warned.clear();
        warned.add(item.checksum);
        warn(
          `${item.file}: ${headings} more headings than the ${MAX_SECTIONS} sections an item has at most; ` +
            `they are text of the last section`,
        );
      },
    });
    let size = text.length * 2;
    for (const section of sections) size += section.text.length * 2 + 200;
    const value = { text, sections, size };
    keep(item.checksum, value);
    return value;
  };
  return {
    async gather(items, wanted) {
      const extras = new Map<Item, ItemExtras>();
      const changed: Item[] = [];
      const pace = createPacer();
      let next = 0;
      await forEachConcurrently(() => items[next++], async (item) => {
        const known = made.get(item.checksum);
        const needsText = (wanted.text || wanted.sections) && !known;
        let body: string | undefined;
        let bodyBytes: readonly [Uint8Array, number, number] | undefined;
        if (item.body !== undefined) body = item.body;
        else if (wanted.body && wanted.bodyAsBytes && readBytes) {
          // The body as JSON straight from the file's bytes; decoded only for text.
          const bytes = await readBytes(item);
          if (bytes === undefined) return void changed.push(item);
          const range = bodyRange(bytes);
          if (range) bodyBytes = [bytes, range[0], range[1]];
          if (!range || needsText) body = parseBody(bytes);
          if (body === undefined && !bodyBytes) return void changed.push(item);
        } else if (wanted.body || needsText) {
          body = readBody ? await readBody(item) : undefined;
          if (body === undefined) return void changed.push(item);
        }
        const texts = wanted.text || wanted.sections
          ? await make(item, body ?? "", pace)
          : undefined;
        extras.set(item, {
          ...(wanted.body ? bodyBytes && body === undefined ? { bodyBytes } : { body } : {}),
          ...(wanted.text ? { text: texts!.text } : {}),
          ...(wanted.sections ? { sections: texts!.sections } : {}),
        });
        // Items whose bodies the index holds (a snapshot) come without a read to wait on.
        const turn = pace();
        if (turn) await turn;
      });
      return { extras, changed };
    },
  };
}
