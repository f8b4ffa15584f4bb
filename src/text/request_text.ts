// What a request's text and sections are made with (SPEC 13), in one module
// that `feed/item_text.ts` loads at the first text asked for: a server that
// is never asked for text never loads the Markdown parser.
export { readBlocksPaced } from "./segments.ts";
export { htmlDocumentBlocks } from "./html_blocks.ts";
export { plainTextPaced } from "./plain_text.ts";
export { MAX_SECTIONS, sectionsOf } from "./sections.ts";
