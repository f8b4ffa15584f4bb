import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { loadConfigFile, loadConfigObject } from "../src/config/load.ts";
import { parseAuthorsFile, parseConfig } from "../src/config/parse.ts";
import { ConfigError, type ContentConfig } from "../src/config/types.ts";
import { validateConfig } from "../src/config/validate.ts";

const FILE = "/site/content/services.yaml";

/** A services.yaml whose `service.content.config` is the given (indented) YAML. */
function yaml(body: string): string {
  const indented = body.split("\n").map((line) => (line ? `    ${line}` : line)).join("\n");
  return `parameters:\n  service.content.config:\n${indented}\n`;
}

/** Asserts that `run` throws a one-line ConfigError naming `file` and every one of `parts`. */
function assertConfigError(run: () => unknown, file: string, ...parts: string[]): ConfigError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  return checkError(thrown, file, parts);
}

async function assertConfigErrorAsync(
  run: () => Promise<unknown>,
  file: string,
  ...parts: string[]
): Promise<ConfigError> {
  let thrown: unknown;
  try {
    await run();
  } catch (error) {
    thrown = error;
  }
  return checkError(thrown, file, parts);
}

function checkError(thrown: unknown, file: string, parts: string[]): ConfigError {
  assert.ok(thrown !== undefined, "expected a ConfigError, nothing was thrown");
  assert.ok(thrown instanceof ConfigError, `expected a ConfigError, got ${thrown}`);
  assert.equal(thrown.name, "ConfigError");
  assert.ok(!/[\r\n]/.test(thrown.message), `not one line: ${JSON.stringify(thrown.message)}`);
  assert.ok(thrown.message.startsWith(file), `does not name ${file}: ${thrown.message}`);
  for (const part of parts) {
    assert.ok(thrown.message.includes(part), `does not name ${part}: ${thrown.message}`);
  }
  return thrown;
}

describe("parseConfig", () => {
  it("reads the SPEC's example configuration", () => {
    const text = yaml(`title: Example Docs
url: https://example.com
path: .
plugins:
  academy: ~
  blog: ~
  docs: { path: docs, exclude: ["drafts/**"] }
  faq: ~
  pages: ~
  api: ~
  sitemap: ~
  llms: ~
  feed: ~
  mcp: ~`);
    const expected: ContentConfig = {
      source: FILE,
      title: "Example Docs",
      url: "https://example.com",
      root: "/site/content",
      plugins: [
        {
          name: "academy",
          type: "academy",
          path: "academy",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/academy",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        },
        {
          name: "blog",
          type: "blog",
          path: "blog",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/blog",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        },
        {
          name: "docs",
          type: "docs",
          path: "docs",
          include: undefined,
          exclude: ["drafts/**"],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/docs",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        },
        {
          name: "faq",
          type: "faq",
          path: "faq",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/faq",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        },
        {
          name: "pages",
          type: "pages",
          path: "pages",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/pages",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        },
      ],
      api: true,
      sitemap: true,
      llms: true,
      feed: true,
      mcp: true,
      maxFileSize: 10 * 1024 * 1024,
      git: true,
      description: undefined,
      state: "/site/content/.content-feed",
      retention: 90,
      siteUrl: undefined,
      site: "/site/content",
      locales: [],
      authorsFile: undefined,
    };
    assert.deepEqual(parseConfig(text, FILE), expected);
  });

  it("reads a minimal configuration with defaults", () => {
    assert.deepEqual(parseConfig(yaml("plugins:\n  docs: ~"), FILE), {
      source: FILE,
      title: undefined,
      url: undefined,
      root: "/site/content",
      plugins: [{
        name: "docs",
        type: "docs",
        path: "docs",
        include: undefined,
        exclude: [],
        orphans: "keep",
        permalink: undefined,
        authors: undefined,
        route: "/docs",
        generator: "plain",
        variants: undefined,
        cleanUrls: false,
      }],
      api: false,
      sitemap: false,
      llms: false,
      feed: false,
      mcp: false,
      maxFileSize: 10 * 1024 * 1024,
      git: true,
      description: undefined,
      state: "/site/content/.content-feed",
      retention: 90,
      siteUrl: undefined,
      site: "/site/content",
      locales: [],
      authorsFile: undefined,
    });
  });

  it("removes the trailing slash of url", () => {
    const url = (value: string) =>
      parseConfig(yaml(`url: ${value}\nplugins: { api: ~ }`), FILE).url;
    assert.equal(url("https://example.com/"), "https://example.com");
    assert.equal(url("https://example.com/content/"), "https://example.com/content");
    assert.equal(url("http://localhost:8000"), "http://localhost:8000");
  });

  it("resolves path against the config file's folder", () => {
    const root = (path: string) =>
      parseConfig(yaml(`path: ${path}\nplugins: { docs: ~ }`), FILE).root;
    assert.equal(root("."), "/site/content");
    assert.equal(root("site"), "/site/content/site");
    assert.equal(root("./a/b/"), "/site/content/a/b");
    assert.equal(root(".."), "/site");
    assert.equal(root("../other"), "/site/other");
    assert.equal(root("/srv/content"), "/srv/content");
  });

  it("keeps the plugin order of the file", () => {
    const config = parseConfig(
      yaml("plugins:\n  pages: ~\n  api: ~\n  docs: ~\n  blog: ~\n  academy: ~"),
      FILE,
    );
    assert.deepEqual(config.plugins.map((p) => p.name), ["pages", "docs", "blog", "academy"]);
    assert.equal(config.api, true);
  });

  it("defaults a plugin's path to its name and normalizes a given one", () => {
    const config = parseConfig(
      yaml(
        "plugins:\n  docs: { path: knowledge/base }\n  blog: { path: ./news/ }\n  faq: {}\n  pages: ~",
      ),
      FILE,
    );
    assert.deepEqual(config.plugins.map((p) => [p.name, p.path]), [
      ["docs", "knowledge/base"],
      ["blog", "news"],
      ["faq", "faq"],
      ["pages", "pages"],
    ]);
  });

  it("reads include and exclude lists", () => {
    const config = parseConfig(
      yaml(
        'plugins:\n  pages: { include: [".md", "**/*.html"], exclude: ["drafts/**", "*.tmp.md"] }',
      ),
      FILE,
    );
    assert.deepEqual(config.plugins, [{
      name: "pages",
      type: "pages",
      path: "pages",
      include: [".md", "**/*.html"],
      exclude: ["drafts/**", "*.tmp.md"],
      orphans: "keep",
      permalink: undefined,
      authors: undefined,
      route: "/pages",
      generator: "plain",
      variants: undefined,
      cleanUrls: false,
    }]);
  });

  it("reports invalid YAML with the file and the line", () => {
    const text =
      "parameters:\n  service.content.config:\n    plugins:\n      docs: ~\n      docs: ~\n";
    const error = assertConfigError(() => parseConfig(text, FILE), FILE);
    assert.ok(error.message.startsWith(`${FILE}:5:`), error.message);
    assert.match(error.message, /YAML/);
    const bad = "parameters:\n  a: b: c\n";
    assert.ok(
      assertConfigError(() => parseConfig(bad, FILE), FILE).message.startsWith(`${FILE}:2:`),
    );
  });

  it("reports a missing parameters key", () => {
    assertConfigError(
      () => parseConfig("services: {}\n", FILE),
      FILE,
      "parameters.service.content.config",
    );
    assertConfigError(() => parseConfig("", FILE), FILE, "parameters.service.content.config");
  });

  it("reports a missing service.content.config", () => {
    assertConfigError(
      () => parseConfig("parameters:\n  other: 1\n", FILE),
      FILE,
      "parameters.service.content.config",
    );
  });

  it("reports an empty service.content.config", () => {
    assertConfigError(
      () => parseConfig("parameters:\n  service.content.config: ~\n", FILE),
      FILE,
      "service.content.config",
    );
  });

  it("reports missing or wrong plugins", () => {
    assertConfigError(() => parseConfig(yaml("title: x"), FILE), FILE, "plugins", "expected");
    assertConfigError(() => parseConfig(yaml("plugins: [docs]"), FILE), FILE, "plugins");
  });

  it("reports an unknown plugin", () => {
    const error = assertConfigError(
      () => parseConfig(yaml("plugins:\n  docs: ~\n  wiki: ~"), FILE),
      FILE,
      "plugins.wiki",
    );
    assert.match(error.message, /docs/); // says which names are accepted
  });

  it("reports llms, feed or mcp with options, and names them among the accepted plugins", () => {
    for (const name of ["llms", "feed", "mcp"]) {
      assertConfigError(
        () => parseConfig(yaml(`plugins:\n  ${name}: { x: 1 }`), FILE),
        FILE,
        `plugins.${name}`,
      );
    }
    const error = assertConfigError(
      () => parseConfig(yaml("plugins:\n  wiki: ~"), FILE),
      FILE,
      "plugins.wiki",
    );
    assert.match(error.message, /llms, feed, mcp/);
  });

  it("reports api or sitemap with options", () => {
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  api: { path: x }"), FILE),
      FILE,
      "plugins.api",
    );
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  sitemap: true"), FILE),
      FILE,
      "plugins.sitemap",
    );
    assertConfigError(() => parseConfig(yaml("plugins:\n  api: {}"), FILE), FILE, "plugins.api");
  });

  it("reports a plugin value that is not a map", () => {
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  docs: docs"), FILE),
      FILE,
      "plugins.docs",
    );
  });

  it("reports options of the wrong type", () => {
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  docs: { path: 5 }"), FILE),
      FILE,
      "plugins.docs.path",
    );
    assertConfigError(
      () => parseConfig(yaml('plugins:\n  docs: { exclude: "drafts/**" }'), FILE),
      FILE,
      "plugins.docs.exclude",
    );
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  docs: { include: [1, 2] }"), FILE),
      FILE,
      "plugins.docs.include",
    );
    assertConfigError(
      () => parseConfig(yaml("title: 5\nplugins: { docs: ~ }"), FILE),
      FILE,
      "title",
    );
    assertConfigError(
      () => parseConfig(yaml("path: 5\nplugins: { docs: ~ }"), FILE),
      FILE,
      "service.content.config.path",
    );
  });

  it("reports an unknown plugin option", () => {
    assertConfigError(
      () => parseConfig(yaml("plugins:\n  docs: { paths: docs }"), FILE),
      FILE,
      "plugins.docs.paths",
    );
  });

  it("reports an unknown top-level key", () => {
    assertConfigError(
      () => parseConfig(yaml("titel: Docs\nplugins: { docs: ~ }"), FILE),
      FILE,
      "service.content.config.titel",
    );
  });

  it("reports a url that is not an absolute http(s) URL", () => {
    for (const url of ["ftp://example.com", "example.com", "/content", "5"]) {
      assertConfigError(
        () => parseConfig(yaml(`url: "${url}"\nplugins: { api: ~ }`), FILE),
        FILE,
        "service.content.config.url",
      );
    }
  });

  it("reports a plugin path that leaves the content root", () => {
    for (const path of ["../x", "docs/../../x", "/etc"]) {
      assertConfigError(
        () => parseConfig(yaml(`plugins:\n  docs: { path: "${path}" }`), FILE),
        FILE,
        "plugins.docs.path",
      );
    }
  });
});

describe("validateConfig", () => {
  it("validates an object and resolves path against the given folder", () => {
    assert.deepEqual(
      validateConfig(
        { url: "https://example.com/", path: "content", plugins: { blog: null, api: null } },
        "/site",
      ),
      {
        source: "options",
        title: undefined,
        url: "https://example.com",
        root: "/site/content",
        plugins: [{
          name: "blog",
          type: "blog",
          path: "blog",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/blog",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        }],
        api: true,
        sitemap: false,
        llms: false,
        feed: false,
        mcp: false,
        maxFileSize: 10 * 1024 * 1024,
        git: true,
        description: undefined,
        state: "/site/content/.content-feed",
        retention: 90,
        siteUrl: undefined,
        site: "/site/content",
        locales: [],
        authorsFile: undefined,
      },
    );
  });

  it("names the source and the key in errors", () => {
    assertConfigError(
      () => validateConfig({ plugins: { wiki: null } }, "/site"),
      "options",
      "service.content.config.plugins.wiki",
    );
    assertConfigError(() => validateConfig("docs", "/site"), "options", "service.content.config");
  });
});

describe("loadConfigFile", () => {
  /**
   * Writes `text` as services.yaml in a new temporary folder (plus empty sub-folders),
   * runs `check` with the file's path, and removes the folder.
   */
  async function withConfigFile(
    text: string,
    folders: string[],
    check: (file: string) => Promise<void>,
  ): Promise<void> {
    const dir = await mkdtemp(join(tmpdir(), "content-feed-config-"));
    try {
      for (const sub of folders) await mkdir(join(dir, sub), { recursive: true });
      const file = join(dir, "services.yaml");
      await writeFile(file, text);
      await check(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  it("loads a valid file and resolves the root against its folder", async () => {
    const text = yaml("url: https://example.com/\npath: content\nplugins:\n  docs: ~\n  api: ~");
    await withConfigFile(text, ["content"], async (file) => {
      assert.deepEqual(await loadConfigFile(file), {
        source: file,
        title: undefined,
        url: "https://example.com",
        root: join(file, "..", "content"),
        plugins: [{
          name: "docs",
          type: "docs",
          path: "docs",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/docs",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        }],
        api: true,
        sitemap: false,
        llms: false,
        feed: false,
        mcp: false,
        maxFileSize: 10 * 1024 * 1024,
        git: true,
        description: undefined,
        state: join(file, "..", ".content-feed"),
        retention: 90,
        siteUrl: undefined,
        site: join(file, "..", "content"),
        locales: [],
        authorsFile: undefined,
      });
    });
  });

  it("defaults the root to the file's own folder", async () => {
    await withConfigFile(yaml("plugins: { blog: ~ }"), [], async (file) => {
      assert.equal((await loadConfigFile(file)).root, join(file, ".."));
    });
  });

  it("reports a missing file", async () => {
    await withConfigFile("", [], async (existing) => {
      const file = join(existing, "..", "nowhere", "services.yaml");
      await assertConfigErrorAsync(() => loadConfigFile(file), file);
    });
  });

  it("reports a content root that does not exist", async () => {
    await withConfigFile(yaml("path: missing\nplugins: { docs: ~ }"), [], async (file) => {
      const error = await assertConfigErrorAsync(
        () => loadConfigFile(file),
        file,
        "service.content.config.path",
      );
      assert.ok(error.message.includes(join(file, "..", "missing")), error.message);
    });
  });

  it("reports a content root that is a file", async () => {
    await withConfigFile(yaml("path: services.yaml\nplugins: { docs: ~ }"), [], async (file) => {
      await assertConfigErrorAsync(() => loadConfigFile(file), file, "service.content.config.path");
    });
  });

  it("reports invalid YAML with the line", async () => {
    const text = "parameters:\n  service.content.config:\n    a: b: c\n";
    await withConfigFile(text, [], async (file) => {
      const error = await assertConfigErrorAsync(() => loadConfigFile(file), file);
      assert.ok(error.message.startsWith(`${file}:3:`), error.message);
    });
  });

  it("reports an unknown plugin with the file's path", async () => {
    await withConfigFile(yaml("plugins: { wiki: ~ }"), ["wiki"], async (file) => {
      await assertConfigErrorAsync(() => loadConfigFile(file), file, "plugins.wiki");
    });
  });
});

describe("loadConfigObject", () => {
  it("loads an object whose absolute root exists", async () => {
    const dir = await mkdtemp(join(tmpdir(), "content-feed-config-"));
    try {
      assert.deepEqual(await loadConfigObject({ path: dir, plugins: { faq: null, api: null } }), {
        source: "options",
        title: undefined,
        url: undefined,
        root: dir,
        plugins: [{
          name: "faq",
          type: "faq",
          path: "faq",
          include: undefined,
          exclude: [],
          orphans: "keep",
          permalink: undefined,
          authors: undefined,
          route: "/faq",
          generator: "plain",
          variants: undefined,
          cleanUrls: false,
        }],
        api: true,
        sitemap: false,
        llms: false,
        feed: false,
        mcp: false,
        maxFileSize: 10 * 1024 * 1024,
        git: true,
        description: undefined,
        state: join(dir, ".content-feed"),
        retention: 90,
        siteUrl: undefined,
        site: dir,
        locales: [],
        authorsFile: undefined,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("resolves a relative root against the working folder", async () => {
    const config = await loadConfigObject({ plugins: { docs: null } });
    assert.equal(config.root, process.cwd());
  });

  it("reports a root that does not exist", async () => {
    const dir = await mkdtemp(join(tmpdir(), "content-feed-config-"));
    try {
      await assertConfigErrorAsync(
        () => loadConfigObject({ path: join(dir, "missing"), plugins: { docs: null } }),
        "options",
        "service.content.config.path",
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reports an invalid object", async () => {
    await assertConfigErrorAsync(
      () => loadConfigObject({ plugins: { docs: { path: 5 } } }),
      "options",
      "plugins.docs.path",
    );
  });
});

describe("authors files as generators write them (SPEC 16.4)", () => {
  const WHERE = "/site/services.yaml: authors (/site/authors.yml)";
  const read = (text: string, file = "") => Object.fromEntries(parseAuthorsFile(text, WHERE, file));

  it("maps a key to {name}, to a name, to Eleventy's and Hugo's {title}, {name, link}, {display_name}", () => {
    const text = [
      "ana:",
      "  name: Ana Pérez",
      "  title: Maintainer", // Docusaurus: a job title; the name comes first
      "  url: https://ana.dev",
      "bo: Bo Li",
      "cy:",
      "  title: Cy Ng",
      "dee:",
      "  name: Dee Ray",
      "  link: https://dee.dev",
      "eve:",
      "  display_name: Eve Sun",
    ].join("\n");
    assert.deepEqual(read(text), {
      ana: "Ana Pérez",
      bo: "Bo Li",
      cy: "Cy Ng",
      dee: "Dee Ray",
      eve: "Eve Sun",
    });
  });

  it("reads JSON and TOML data files by their extension, and a list keyed by key, id or slug", () => {
    assert.deepEqual(
      read('{\n\t"ana": {\n\t\t"name": "Ana"\n\t},\n\t"bo": "Bo"\n}', "/site/_data/authors.json"),
      { ana: "Ana", bo: "Bo" },
    );
    assert.deepEqual(
      read('[ana]\nname = "Ana"\n\n[bo]\ntitle = "Bo"\n', "/site/data/authors.toml"),
      {
        ana: "Ana",
        bo: "Bo",
      },
    );
    assert.deepEqual(read("- key: ana\n  name: Ana\n- id: bo\n  title: Bo\n"), {
      ana: "Ana",
      bo: "Bo",
    });
  });

  it("names the file, the key and the format in what it rejects", () => {
    assertConfigError(() => read("ana:\n  bio: no name\n"), "/site/services.yaml", "ana", "{name");
    assertConfigError(() => read("{ nope", "/site/a.json"), "/site/services.yaml", "invalid JSON");
    assertConfigError(() => read("a = ", "/site/a.toml"), "/site/services.yaml", "invalid TOML");
    assertConfigError(() => read("- name: Ana\n"), "/site/services.yaml", "key, id or slug");
  });

  it("reads the site-wide authors file at load; a plugin's own file wins for a key", async () => {
    const dir = await mkdtemp(join(tmpdir(), "content-feed-config-"));
    try {
      await mkdir(join(dir, "content", "blog"), { recursive: true });
      await mkdir(join(dir, "content", "docs"), { recursive: true });
      await writeFile(join(dir, "authors.yml"), "ana:\n  name: Ana Pérez\nbo:\n  title: Bo Li\n");
      await writeFile(join(dir, "content", "blog", "authors.yml"), "bo: Bo from the blog\n");
      const file = join(dir, "services.yaml");
      await writeFile(
        file,
        yaml(
          "path: content\nauthors: authors.yml\nplugins:\n  blog: { authors: authors.yml }\n  docs: ~",
        ),
      );
      const config = await loadConfigFile(file);
      const names = Object.fromEntries(
        config.plugins.map((p) => [p.name, Object.fromEntries(p.authorNames ?? [])]),
      );
      assert.deepEqual(names, {
        blog: { ana: "Ana Pérez", bo: "Bo from the blog" },
        docs: { ana: "Ana Pérez", bo: "Bo Li" },
      });
      // A site-wide file that cannot be read is one start-up line naming the key.
      await writeFile(file, yaml("path: content\nauthors: missing.yml\nplugins:\n  docs: ~"));
      await assertConfigErrorAsync(() => loadConfigFile(file), file, "authors", "missing.yml");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
