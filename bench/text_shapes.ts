// Long runs of one fragment of Markdown, HTML, MDX or template syntax,
// through textBlocks, at two lengths: linear work takes about 4× as long for
// 4× the run, quadratic work 16×. The tests count the parser's work
// (tests/text_test.ts); this times what they cannot count, such as a regular
// expression that scans to the end of the text from every opener. Rows
// whose ratio is over 8 are marked.
// With --html, runs of HTML fragments through htmlDocumentBlocks (the pages
// plugin's `.html` files) instead.
// Run: deno run -A bench/text_shapes.ts [--runs 10000,40000] [--html] (or node, bun).
import process from "node:process";
import { textBlocks } from "../src/text/blocks.ts";
import { htmlDocumentBlocks } from "../src/text/html_blocks.ts";

const at = process.argv.indexOf("--runs");
const [short, long] = (at === -1 ? "10000,40000" : process.argv[at + 1]).split(",").map(Number);
const html = process.argv.includes("--html");
const read = html ? htmlDocumentBlocks : textBlocks;
const htmlPieces = ["<p", "<div", "<h1>", "<pre>", "<script>", "<", "<!--", "&#", "</p>"];
const markdownPieces = [
  "{{",
  "{%",
  "{{<",
  "{%-",
  "[",
  "[^",
  "![",
  "<",
  "<!--",
  "<div>",
  "<p",
  "<script>",
  "{/*",
  "{% comment %}",
  "{",
  "{: .a",
  "](",
  "]({{ x }}",
  "](/a/{{",
  "&#",
  "*",
  "_",
  "`",
  "> ",
  "- ",
  "|",
  "\\",
  "## h\n",
  "- item\n",
  "| a |\n",
  // SPEC 16.4: JSX tags and expressions, code spans around them, markers, quotes in template tags.
  "<Card a={",
  "<X ",
  "<T `x` ",
  "`",
  "``<A>",
  '{ "',
  '{% "',
  "{% '",
  '{{ "',
  "{#",
  "{{< f\n",
  "> [!NOTE]\n",
  "!!! n\n    ",
  "/// t\n",
  "--8<--\n",
  "{* x *}\n",
  "{ #a .b }",
  "<script>\n",
  "<template #x>",
];
const pieces = html ? htmlPieces : markdownPieces;

/** The best of three readings of `body`, in ms. */
function timeOf(body: string): number {
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = performance.now();
    read(body);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

console.log(`fragment\t${short}× ms\t${long}× ms\tratio`);
for (const piece of pieces) {
  const a = timeOf(piece.repeat(short));
  const b = timeOf(piece.repeat(long));
  const ratio = b / Math.max(a, 0.5);
  console.log(
    `${JSON.stringify(piece)}\t${a.toFixed(1)}\t${b.toFixed(1)}\t${ratio.toFixed(1)}${
      ratio > 8 && b > 20 ? "\t<- superlinear" : ""
    }`,
  );
}
