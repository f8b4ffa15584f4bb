// SPEC 16.4: titles and text as the site shows them, in every generator mode.
// Each rule of "no markup in text" on its own, then a small corpus in the
// shapes Docusaurus, Starlight, MkDocs Material, Hugo, Jekyll, Eleventy and
// VitePress pages are written in (written for this test): no markup left in
// the text, the prose kept, and the same text read in one piece or in
// segments. Then titles and descriptions from front matter, scalars where
// text is expected, and authors as sites write them.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { textBlocks } from "../src/text/blocks.ts";
import { plainText } from "../src/text/plain_text.ts";
import { readBlocksPaced } from "../src/text/segments.ts";
import { summarizeText } from "../src/text/summary.ts";
import { fieldText } from "../src/text/field_text.ts";
import { deriveFields } from "../src/fields/derive.ts";
import { parseAuthors } from "../src/fields/names.ts";
import type { Warning } from "../src/source/parsed_file.ts";

const text = (body: string) => plainText(textBlocks(body));
const kinds = (body: string) => textBlocks(body).map((b) => [b.kind, b.text]);

/** What no item's text may hold (SPEC 16.4): tags, admonition and block markers, template tags. */
const MARKUP = [
  /<\/?[A-Za-z][\w.-]*(?:\s[^<>]*)?\/?>/, // a tag
  /<[A-Z]/,
  /:::/,
  /^\s*\/\/\//m,
  /^\s*(?:!!!|\?\?\?)/m,
  /\{\*/,
  /--8<--/,
  /\{\{[<%]/,
  /\{%/,
  /\{\{/,
  /\{#/,
  /\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION|div)/i,
  /\{\s*[.#][\w-]+\s*\}/, // an attribute list
  /\{:/,
  /^\s*(?:```|~~~)/m, // a fence line
  /\{\/\*/,
  /^\s*(?:import|export)\s/m,
];

function assertNoMarkup(written: string, where: string): void {
  for (const pattern of MARKUP) {
    const found = pattern.exec(written);
    assert.equal(found, null, `${where}: ${pattern} in ${JSON.stringify(written)}`);
  }
}

/** Reads a body whole and in segments of one line at least, which must agree. */
async function bothWays(body: string): Promise<string> {
  const whole = text(body);
  const paced = plainText((await readBlocksPaced(body, () => undefined, 1)).blocks);
  assert.equal(paced, whole, "read in segments");
  return whole;
}

describe("no markup in text (SPEC 16.4)", () => {
  it("MDX: components indented in a list are markup, the fenced code inside them is code", () => {
    const body = [
      "1. Install the package:",
      "",
      "    <Tabs>",
      '      <TabItem label="npm">',
      "        ```sh",
      "        npm install lantern",
      "        ```",
      "      </TabItem>",
      '      <TabItem label="pnpm">',
      "",
      "        ```sh",
      "        pnpm add lantern",
      "        ```",
      "",
      "      </TabItem>",
      "    </Tabs>",
      "",
      "2. Style it:",
      "",
      "    ```css",
      "    .lantern { color: amber; }",
      "    ```",
    ].join("\n");
    assert.deepEqual(kinds(body), [
      ["paragraph", "Install the package:"],
      ["code", "npm install lantern"],
      ["code", "pnpm add lantern"],
      ["paragraph", "Style it:"],
      ["code", ".lantern { color: amber; }"],
    ]);
  });

  it("MDX: a component's content indented 4 or more is moved out of what would be a code block", () => {
    const body =
      "<Steps>\n        Deeply indented prose.\n</Steps>\n\n<Aside>\n\n    Inside an aside.\n\n</Aside>";
    assert.deepEqual(kinds(body), [
      ["paragraph", "Deeply indented prose."],
      ["paragraph", "Inside an aside."],
    ]);
  });

  it("plain Markdown: an indented code block outside any component is still code", () => {
    assert.deepEqual(kinds("Text.\n\n    indented code\n\nMore."), [
      ["paragraph", "Text."],
      ["code", "indented code"],
      ["paragraph", "More."],
    ]);
  });

  it("JSX whose attributes hold {…} expressions (nested, multi-line, strings with > and }) is markup", () => {
    const body = [
      '<Card title="Hi" icon={{ name: "x", color: ">" }} onClick={() => { go("}") }}>',
      "  Card body text.",
      "</Card>",
      "",
      "<Aside",
      '  type="tip"',
      "  data={{",
      "    a: 1,",
      "  }}",
      ">",
      "Aside text.",
      "</Aside>",
      "",
      'Inline <Icon name={`a>b`} size={2} /> icon and <Badge text="new" /> badge.',
      "",
      '<div style={{ margin: "0 auto" }}>Centered.</div>',
    ].join("\n");
    assert.equal(
      text(body),
      "Card body text.\n\nAside text.\n\nInline  icon and  badge.\n\nCentered.",
    );
  });

  it("MDX comments go; a component's name in a code span stays as written", () => {
    assert.equal(text("{/* hidden */}\n\nUse `<Tabs>` {/* gone */} here."), "Use <Tabs>  here.");
    assert.equal(text("Wrap it in `<TabItem value={x}>`."), "Wrap it in <TabItem value={x}>.");
  });

  it("Vue: a <template #slot> and @event attributes are markup, their text stays", () => {
    assert.equal(
      text(
        '<VPTeamPage>\n  <template #title>Our Team</template>\n  <button @click="go">Go</button>\n</VPTeamPage>',
      ),
      "Our Team\nGo",
    );
  });

  it("GitHub and DocFX alerts: the marker goes, the text stays", () => {
    const body = [
      "> [!NOTE]",
      "> Useful information.",
      "",
      "> [!IMPORTANT]",
      "> Crucial.",
      "",
      ">[!caution] Careful",
      "",
      '> [!div class="op_single_selector"]',
      "> - [One](one.md)",
      "",
      "- In a list:",
      "",
      "  > [!TIP]",
      "  > Nested.",
      "",
      "[!INCLUDE [shared](../includes/shared.md)]",
    ].join("\n");
    assert.equal(
      text(body),
      "Useful information.\n\nCrucial.\n\nCareful\n\nOne\n\nIn a list:\n\nNested.",
    );
  });

  it("MkDocs admonitions (!!!, ??? and ???+), nested and in lists, keep their content, never as code", () => {
    const body = [
      '!!! note "Title"',
      "",
      "    Admonition body.",
      "",
      "    ??? tip",
      "        Nested body.",
      "",
      "???+ warning",
      "    Open body.",
      "",
      "    ```sh",
      "    rm -rf build",
      "    ```",
      "",
      "1.  A step:",
      "",
      "    !!! info",
      "",
      "        Inside the step.",
      "",
      "After.",
    ].join("\n");
    assert.deepEqual(kinds(body), [
      ["paragraph", "Admonition body."],
      ["paragraph", "Nested body."],
      ["paragraph", "Open body."],
      ["code", "rm -rf build"],
      ["paragraph", "A step:"],
      ["paragraph", "Inside the step."],
      ["paragraph", "After."],
    ]);
  });

  it("pymdownx blocks keep their content and lose their markers and options", () => {
    const body = [
      "/// tip",
      "Block tip content.",
      "///",
      "",
      "/// details | Summary here",
      "    type: warning",
      "    open: true",
      "",
      "Details body.",
      "///",
      "",
      "//// admonition | Outer",
      "/// tab | Inner",
      "Nested content.",
      "///",
      "////",
    ].join("\n");
    assert.equal(text(body), "Block tip content.\n\nDetails body.\n\nNested content.");
  });

  it("snippet lines, escaped or in a block, and include markers go", () => {
    const body = [
      '--8<-- "includes/abbreviations.md"',
      "",
      ';--8<-- "shown.md"',
      "",
      "--8<--",
      "snippets/a.md",
      "",
      "snippets/b.md",
      "--8<--",
      "",
      "{* ../../docs_src/first_steps/tutorial001.py hl[4] *}",
      "",
      "{!docs/partials/intro.md!}",
      "",
      "Only this stays.",
    ].join("\n");
    assert.equal(text(body), "Only this stays.");
  });

  it("attribute lists go, inline and on lines of their own; a heading's anchor is still read", () => {
    const body = [
      "# Rooms { #rooms-api }",
      "",
      "[Get started](start.md){ .md-button .md-button--primary }",
      "",
      "Paragraph with attributes.",
      '{ #para data-x=y title="A title" }',
      "",
      "{: .lead }",
      "",
      "{ data-search-exclude }",
      "",
      "Keep {braces} and {this}.",
    ].join("\n");
    const blocks = textBlocks(body);
    assert.deepEqual([blocks[0].text, blocks[0].anchor], ["Rooms", "rooms-api"]);
    assert.equal(
      plainText(blocks.slice(1)),
      "Get started\n\nParagraph with attributes.\n\nKeep {braces} and {this}.",
    );
  });

  it("Hugo: a paired shortcode keeps its inner text, a self-closing one goes, over several lines too", () => {
    const body = [
      '{{< tab name="Linux" >}}',
      "Tab text.",
      "{{< /tab >}}",
      "",
      "{{% notice note %}}",
      "Notice text.",
      "{{% /notice %}}",
      "",
      "{{< figure",
      '  src="images/lantern.png"',
      '  caption="A lantern"',
      ">}}",
      "",
      'See {{< ref "install" />}} now.',
    ].join("\n");
    assert.equal(text(body), "Tab text.\n\nNotice text.\n\nSee  now.");
  });

  it("Liquid and Nunjucks tags go whatever their arguments hold; {% raw %} keeps its content as text", () => {
    const body = [
      '{% include note.html content="a %} inside a string" %}',
      "",
      "{% if page.lang == '`' %}Shown{% endif %} and {% if x == \"`\" %}too{% endif %}.",
      "",
      "{# a Nunjucks comment #}",
      "",
      '{{ "/about/" | url }} Read on.',
      "",
      "{% raw %}{{ literally }}{% endraw %}",
    ].join("\n");
    assert.equal(text(body), "Shown and too.\n\nRead on.\n\n{{ literally }}");
  });

  it("a <script setup> or <style> block is no content: not text, not the description, not the title", () => {
    const body = [
      "<script setup>",
      "import {",
      "  VPTeamPage,",
      "  VPTeamPageTitle",
      "} from 'vitepress/theme'",
      "",
      "export default {}",
      "</script>",
      "",
      "<style scoped>",
      ".x { color: red }",
      "</style>",
      "",
      "# Latest From the Blog",
      "",
      "News from the team.",
    ].join("\n");
    assert.equal(text(body), "Latest From the Blog\n\nNews from the team.");
    assert.deepEqual(summarizeText(body), {
      heading: "Latest From the Blog",
      prose: "News from the team.",
      words: 8,
    });
    assert.equal(text('<div>\n<script>track("x")</script>\nVisible.\n</div>'), "Visible.");
  });
});

/** Pages in the shapes each generator's sites write them, and the prose each must keep. */
const CORPUS: Record<string, { body: string; keeps: string[] }> = {
  docusaurus: {
    body: `import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

Lanterns light the harbor.

1. Pick a package manager:

   <Tabs groupId="pm">
   <TabItem value="npm" label="npm" default>

   \`\`\`bash
   npm install lantern
   \`\`\`

   </TabItem>
   <TabItem value="yarn" label="Yarn">

   \`\`\`bash
   yarn add lantern
   \`\`\`

   </TabItem>
   </Tabs>

2. Configure it:

    :::tip Pro tip

    Keep the wick trimmed.

    :::

<details>
  <summary>Why amber?</summary>

  Amber carries through fog.
</details>
`,
    keeps: [
      "Lanterns light the harbor.",
      "npm install lantern",
      "Keep the wick trimmed.",
      "Why amber?",
    ],
  },
  starlight: {
    body:
      `import { Steps, Card, CardGrid, Code, FileTree, Aside } from '@astrojs/starlight/components';

<CardGrid stagger>
	<Card title="Update content" icon="pencil">
		Edit the index page to see it change.
	</Card>
</CardGrid>

<Steps>
1. Create the config:

    <Code
      code={\`export default { site: "x" }\`}
      lang="js"
      title="astro.config.mjs"
    />

2. Start the server.
</Steps>

<Aside type="caution" title="Heads up">
Never commit the keeper's logbook.
</Aside>

:::tip[Did you know?]
Starlight has asides.
:::

<FileTree>
- src/
  - content/
</FileTree>
`,
    keeps: [
      "Edit the index page to see it change.",
      "Start the server.",
      "Never commit the keeper's logbook.",
      "Starlight has asides.",
    ],
  },
  "mkdocs material": {
    body: `# Install

=== "pip"

    \`\`\`sh
    pip install lantern
    \`\`\`

1.  Open a terminal.

    !!! warning "Careful"

        Use a virtual environment.

/// admonition | Note
    type: note

Read the keeper's manual.
///

--8<-- "includes/abbreviations.md"

[Get started](start.md){ .md-button .md-button--primary }

{* ../../docs_src/tutorial001.py hl[1,3] *}

Works offline.
{ .annotate }
`,
    keeps: [
      "pip install lantern",
      "Open a terminal.",
      "Use a virtual environment.",
      "Read the keeper's manual.",
      "Get started",
      "Works offline.",
    ],
  },
  hugo: {
    body: `{{< tabpane >}}
{{< tab header="Linux" lang="sh" >}}
apt install lantern
{{< /tab >}}
{{< /tabpane >}}

{{% alert title="Note" color="info" %}}
Hugo lights it fast.
{{% /alert %}}

{{< figure
  src="images/a.png"
  caption="A caption"
>}}

Use the {{< param "version" >}} release. See [install]({{< relref "install.md" >}}).
`,
    keeps: ["apt install lantern", "Hugo lights it fast.", "release. See install."],
  },
  jekyll: {
    body: `{% include note.html content="A note with %} inside" %}

Text {{ site.title | escape }} here.
{: .lead }

{%- if page.toc -%}
{% include toc.html %}
{%- endif -%}

> [!NOTE]
> Tides turn twice a day.
`,
    keeps: ["Text  here.", "Tides turn twice a day."],
  },
  eleventy: {
    body: `{# a nunjucks comment #}

{% image "./lantern.jpg", "A lantern" %}

Read {{ "/about/" | url }} for more.

{% renderTemplate "md" %}
# Rendered heading
{% endrenderTemplate %}
`,
    keeps: ["Read  for more.", "Rendered heading"],
  },
  vitepress: {
    body: `<script setup lang="ts">
import { VPTeamPage, VPTeamPageTitle } from 'vitepress/theme'
const members = [{ name: 'Ana' }]
</script>

# Guide <Badge type="tip" text="v2" />

::: code-group

\`\`\`sh [npm]
npm add -D vitepress
\`\`\`

:::

::: details Click me
Hidden details.
:::

<VPTeamPage>
  <VPTeamPageTitle>
    <template #title>Our Team</template>
  </VPTeamPageTitle>
</VPTeamPage>

<style scoped>
.x { color: red; }
</style>
`,
    keeps: ["Guide", "npm add -D vitepress", "Hidden details.", "Our Team"],
  },
};

describe("a corpus of generators' pages: no markup in text, the prose kept (SPEC 16.4)", () => {
  for (const [generator, { body, keeps }] of Object.entries(CORPUS)) {
    it(`${generator}: no markup left; the prose and code kept; the same read in segments`, async () => {
      const written = await bothWays(body);
      // Code blocks keep their text as written: look for markup in the prose only.
      const prose = textBlocks(body).filter((b) => b.kind !== "code").map((b) => b.text).join(
        "\n\n",
      );
      assertNoMarkup(prose, generator);
      for (const kept of keeps) {
        assert.ok(written.includes(kept), `${generator}: ${kept} in ${written}`);
      }
    });
  }
});

describe("titles and descriptions from front matter (SPEC 16.4)", () => {
  it("reads HTML and Markdown inline markup as text, entities decoded, &nbsp; a space", () => {
    assert.equal(fieldText("The <code>fetch</code> API"), "The fetch API");
    assert.equal(fieldText("Use **bold** [links](/x)"), "Use bold links");
    assert.equal(fieldText("Tom&nbsp;&amp;&nbsp;Jerry"), "Tom & Jerry");
    assert.equal(fieldText("![Logo](l.png) *Brand*"), "Logo Brand");
    // What is no markup stays as written.
    assert.equal(fieldText("Vec<T> and __init__ in `a_b`"), "Vec<T> and __init__ in a_b");
    assert.equal(fieldText("C# & .NET: 3 < 4"), "C# & .NET: 3 < 4");
    assert.equal(fieldText("Two lines\nof text"), "Two lines\nof text");
  });

  const derived = (attrs: Record<string, unknown>, body = "Some prose for the page.") => {
    const warnings: Warning[] = [];
    const fields = deriveFields(
      { plugin: "docs", path: "guide.md", checksum: "", mtime: 0, attrs, body },
      "docs/guide.md",
      warnings,
    );
    return { fields, warnings };
  };

  it("gives an item's title and description without their markup", () => {
    const { fields, warnings } = derived({
      title: "The <code>fetch</code>&nbsp;API",
      description: "Use **bold** [links](/x)",
    });
    assert.equal(fields.title, "The fetch API");
    assert.equal(fields.description, "Use bold links");
    assert.deepEqual(warnings, []);
    assert.equal(derived({ summary: "A *short* summary" }).fields.description, "A short summary");
  });

  it("takes the title from the heading after a VitePress <script setup>", () => {
    const body =
      "<script setup>\nimport { data } from './posts.data.js'\n</script>\n\n# Latest From the Blog\n\nNews.";
    const { fields } = derived({}, body);
    assert.equal(fields.title, "Latest From the Blog");
    assert.equal(fields.description, "News.");
  });

  it("reads a scalar where text is expected as its text, without a warning", () => {
    const { fields, warnings } = derived({ title: 2025, description: 1.5, slug: 2020 });
    assert.equal(fields.title, "2025");
    assert.equal(fields.description, "1.5");
    assert.equal(fields.slug, "2020");
    assert.deepEqual(warnings, []);
    assert.equal(derived({ summary: 7 }).fields.description, "7");
    assert.equal(derived({ title: true }).fields.title, "true");
    assert.equal(derived({ slug: false }).fields.slug, "false");
    // A list or a map is still the wrong type: the default, with a warning.
    const wrong = derived({ title: ["a"] });
    assert.equal(wrong.fields.title, "guide");
    assert.equal(wrong.warnings.length, 1);
  });
});

describe("authors as sites write them (SPEC 16.4)", () => {
  const names = (value: unknown, keys?: ReadonlyMap<string, string>) =>
    parseAuthors(value, keys).value.map((a) => a.name);

  it("reads Markdown links in a string as authors, each named by its link's text", () => {
    assert.deepEqual(names("[A](https://a.dev), [B](https://b.dev)"), ["A", "B"]);
    assert.deepEqual(names("[Ana **P**](https://a.dev) and [Bo](https://b.dev)"), ["Ana P", "Bo"]);
    assert.deepEqual(names(["[Ana](https://a.dev)", "Bo"]), ["Ana", "Bo"]);
  });

  it("parts one string's names at commas and semicolons, and at and/& after them", () => {
    assert.deepEqual(names("Ana, Bo and Cy"), ["Ana", "Bo", "Cy"]);
    assert.deepEqual(names("Ana; Bo"), ["Ana", "Bo"]);
    // One name that holds "and", or "&", is one name.
    assert.deepEqual(names("Tom and Jerry"), ["Tom and Jerry"]);
    assert.deepEqual(names("Alexander Sanders"), ["Alexander Sanders"]);
    assert.deepEqual(names("Ana & Bo"), ["Ana & Bo"]);
    // In a list, each entry is one name.
    assert.deepEqual(names(["Doe, John"]), ["Doe, John"]);
  });

  it("reads each key of a string through the authors file", () => {
    const keys = new Map([["ana", "Ana Pérez"], ["bo", "Bo Li"]]);
    assert.deepEqual(names("ana, bo", keys), ["Ana Pérez", "Bo Li"]);
    assert.deepEqual(names(["ana", "[Cy](https://c.dev)"], keys), ["Ana Pérez", "Cy"]);
  });
});
