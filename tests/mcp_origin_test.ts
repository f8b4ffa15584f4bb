// Which MCP requests are answered (SPEC 14, the transport's DNS rebinding
// rule): bound to a loopback address, a request whose Host or Origin names
// another host than localhost, a loopback address, the configured url's
// host or mcp.allowed_origins is a 403; on other addresses, allowed_origins
// when it is set. Through createContentApi (its listenHostname option), the
// config, a snapshot, and the running server that `serve --host` starts.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.d.ts"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createContentApi } from "../mod.ts";
import { makeSnapshot } from "../src/snapshot.ts";
import { parseConfig } from "../src/config/parse.ts";
import { ConfigError } from "../src/config/types.ts";
import { isLoopback } from "../src/http/mcp_origin.ts";
import {
  LONG,
  md,
  memoryLogger,
  removeSite,
  type TestSite,
  withSite,
  writeSite,
} from "./helpers.ts";
import { OWN_RUNTIME, rawRequest, RUNTIMES, startServer } from "./server_helpers.ts";

const configWith = (url: string | undefined, mcp = "~") =>
  `parameters:
  service.content.config:
${url ? `    url: ${url}\n` : ""}    plugins:
      docs: ~
      api: ~
      mcp: ${mcp}
`;

const FILES = { "docs/intro.md": md({ title: "Intro" }, `Welcome aboard. ${LONG}`) };

const PING = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

/** A POST /api/mcp with these headers (Host among them) through the API's fetch. */
async function status(
  fetch: (request: Request) => Promise<Response>,
  headers: Record<string, string>,
): Promise<number> {
  const response = await fetch(
    new Request("http://localhost:8000/api/mcp", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...headers,
      },
      body: PING,
    }),
  );
  await response.arrayBuffer();
  return response.status;
}

/** Each case: headers, and the status it is answered with. */
async function expect(
  s: Pick<TestSite, "api">,
  cases: [Record<string, string>, number][],
): Promise<void> {
  for (const [headers, expected] of cases) {
    assert.equal(await status((r) => s.api.fetch(r), headers), expected, JSON.stringify(headers));
  }
}

describe("MCP Origin and Host validation (SPEC 14)", () => {
  it("knows loopback addresses", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "LOCALHOST", "::1", "[::1]"]) {
      assert.equal(isLoopback(host), true, host);
    }
    for (
      const host of ["0.0.0.0", "::", "[::]", "192.168.1.2", "example.com", "localhost.evil", ""]
    ) {
      assert.equal(isLoopback(host), false, host);
    }
    assert.equal(isLoopback("::ffff:127.0.0.1"), true);
  });

  it("bound to a loopback address, refuses other hosts and origins with a 403", async () => {
    await withSite(
      FILES,
      { config: configWith(undefined), listenHostname: "127.0.0.1" },
      async (s) => {
        await expect(s, [
          [{ Host: "localhost:8000" }, 200],
          [{ Host: "127.0.0.1:8000" }, 200],
          [{ Host: "127.0.0.1" }, 200],
          [{ Host: "[::1]:8000" }, 200],
          [{ Host: "LocalHost:1" }, 200],
          [{ Host: "localhost:8000", Origin: "http://localhost:6274" }, 200],
          [{ Host: "localhost:8000", Origin: "https://127.0.0.1" }, 200],
          [{ Host: "evil.example.com" }, 403],
          [{ Host: "evil.example.com:8000", Origin: "http://evil.example.com:8000" }, 403],
          [{ Host: "localhost:8000", Origin: "http://evil.example.com" }, 403],
          [{ Host: "localhost:8000", Origin: "null" }, 403],
          [{ Host: "localhost.evil.example.com" }, 403],
          [{ Host: "127.0.0.1.evil.example.com" }, 403],
        ]);
        const refused = await s.api.fetch(
          new Request("http://localhost:8000/api/mcp", {
            method: "POST",
            headers: {
              Host: "evil.example.com",
              Origin: "http://evil.example.com",
              "Content-Type": "application/json",
              Accept: "application/json, text/event-stream",
            },
            body: PING,
          }),
        );
        assert.equal(refused.status, 403);
        assert.equal(refused.headers.get("content-type"), "application/json");
        assert.equal(refused.headers.get("cache-control"), "no-store");
        const body = await refused.json();
        assert.equal(body.jsonrpc, "2.0");
        assert.equal(body.id, null);
        assert.match(
          body.error.message,
          /^Forbidden: the Host "evil\.example\.com" is not localhost, a loopback address, the configured url's host or an origin of mcp\.allowed_origins/,
        );
        // Only MCP requests: the feed answers whatever the Host (it is public, and read-only).
        const feed = await s.api.fetch(
          new Request("http://localhost:8000/api/content.json", {
            headers: { Host: "evil.example.com" },
          }),
        );
        assert.equal(feed.status, 200);
      },
    );
  });

  it("bound to a loopback address, answers the configured url's host: a reverse proxy keeps working", async () => {
    const config = configWith("https://docs.example.com/content");
    await withSite(FILES, { config, listenHostname: "::1" }, async (s) => {
      await expect(s, [
        [{ Host: "docs.example.com" }, 200],
        [{ Host: "docs.example.com:443" }, 200],
        [{ Host: "docs.example.com", Origin: "https://docs.example.com" }, 200],
        [{ Host: "docs.example.com", Origin: "http://docs.example.com" }, 403],
        [{ Host: "docs.example.com", Origin: "https://docs.example.com:8443" }, 403],
        [{ Host: "other.example.com" }, 403],
        [{ Host: "localhost" }, 200],
      ]);
    });
  });

  it("bound to a loopback address, answers the hosts and origins of allowed_origins", async () => {
    const config = configWith(
      undefined,
      `{ allowed_origins: ["https://app.example.com", "http://intranet:8080/"] }`,
    );
    await withSite(FILES, { config, listenHostname: "localhost" }, async (s) => {
      await expect(s, [
        [{ Host: "app.example.com" }, 200],
        [{ Host: "localhost", Origin: "https://app.example.com" }, 200],
        [{ Host: "intranet:8080", Origin: "http://intranet:8080" }, 200],
        [{ Host: "localhost", Origin: "http://intranet" }, 403],
        [{ Host: "localhost", Origin: "http://app.example.com" }, 403],
        [{ Host: "evil.example.com", Origin: "https://app.example.com" }, 403],
      ]);
    });
  });

  it("on another address, checks Origin against allowed_origins only when it is set", async () => {
    for (const listenHostname of ["0.0.0.0", "192.168.1.2", undefined]) {
      await withSite(FILES, { config: configWith(undefined), listenHostname }, async (s) => {
        await expect(s, [
          [{ Host: "evil.example.com", Origin: "http://evil.example.com" }, 200],
          [{ Host: "docs.example.com" }, 200],
        ]);
      });
      const config = configWith(
        "https://docs.example.com",
        `{ allowed_origins: ["https://app.example.com"] }`,
      );
      await withSite(FILES, { config, listenHostname }, async (s) => {
        await expect(s, [
          // An agent sends no Origin: it is answered, whatever its Host.
          [{ Host: "evil.example.com" }, 200],
          [{ Host: "docs.example.com", Origin: "https://app.example.com" }, 200],
          [{ Host: "docs.example.com", Origin: "https://docs.example.com" }, 200],
          [{ Host: "docs.example.com", Origin: "https://evil.example.com" }, 403],
          [{ Host: "docs.example.com", Origin: "http://localhost:3000" }, 403],
        ]);
      });
    }
  });

  it("reads mcp.allowed_origins from the config, and refuses what is no origin with one line", () => {
    const parse = (mcp: string) => parseConfig(configWith(undefined, mcp), "/site/services.yaml");
    assert.equal(parse("~").mcpAllowedOrigins, undefined);
    assert.equal(parse("{}").mcpAllowedOrigins, undefined);
    assert.equal(parse("{}").mcp, true);
    assert.deepEqual(
      parse(`{ allowed_origins: ["HTTPS://App.Example.com:443", "http://localhost:3000/"] }`)
        .mcpAllowedOrigins,
      ["https://app.example.com", "http://localhost:3000"],
    );
    assert.deepEqual(parse("{ allowed_origins: [] }").mcpAllowedOrigins, []);
    const cases: [string, RegExp][] = [
      ["5", /plugins\.mcp: expected null \(~\) or a map with allowed_origins, got number 5/],
      ["{ origins: [] }", /plugins\.mcp\.origins: expected allowed_origins \(unknown option\)/],
      [
        "{ allowed_origins: https://a.example }",
        /plugins\.mcp\.allowed_origins: expected a list of origins/,
      ],
      ...[
        "https://a.example/path",
        "https://a.example?x=1",
        "ftp://a.example",
        "*",
        "a.example",
        "https://user@a.example",
      ].map((entry): [string, RegExp] => [
        `{ allowed_origins: ["https://ok.example", "${entry}"] }`,
        /plugins\.mcp\.allowed_origins\[1\]: expected an origin: http\(s\), a host and an optional port, such as https:\/\/app\.example\.com, got /,
      ]),
      ["{ allowed_origins: [3] }", /allowed_origins\[0\]: expected an origin.*got number 3/],
    ];
    for (const [mcp, message] of cases) {
      assert.throws(() => parse(mcp), (error: Error) => {
        assert.ok(error instanceof ConfigError, mcp);
        assert.match(
          error.message,
          /^\/site\/services\.yaml: parameters\.service\.content\.config\./,
        );
        assert.match(error.message, message, mcp);
        assert.doesNotMatch(error.message, /\n/);
        return true;
      });
    }
  });

  it("carries allowed_origins in a snapshot", async () => {
    const snapshot = makeSnapshot(
      {
        title: undefined,
        url: "https://docs.example.com",
        api: true,
        sitemap: false,
        mcp: true,
        mcpAllowedOrigins: ["https://app.example.com"],
        plugins: [{ name: "docs", path: "docs" }],
      },
      [{
        plugin: "docs",
        path: "intro.md",
        checksum: "00",
        mtime: 0,
        attrs: { title: "Intro" },
        body: LONG,
      }],
    );
    const copy = JSON.parse(JSON.stringify(snapshot));
    assert.deepEqual(copy.settings.mcpAllowedOrigins, ["https://app.example.com"]);
    const api = await createContentApi({ snapshot: copy, logger: memoryLogger() });
    try {
      await expect({ api }, [
        [{ Host: "edge.example.net", Origin: "https://app.example.com" }, 200],
        [{ Host: "edge.example.net", Origin: "https://evil.example.com" }, 403],
        [{ Host: "edge.example.net" }, 200],
      ]);
    } finally {
      api.close();
    }
  });

  it("the server that serve --host 127.0.0.1 starts refuses a foreign Host; the SDK client connects", async () => {
    const root = await writeSite({
      ...FILES,
      "services.yaml": configWith(
        "https://docs.example.com",
        `{ allowed_origins: ["https://app.example.com"] }`,
      ),
    });
    const server = await startServer(RUNTIMES[OWN_RUNTIME]("main.ts"), {
      CONTENT_CONFIG: join(root, "services.yaml"),
      BASE_URL: "",
      HOST: "127.0.0.1",
    });
    try {
      const port = new URL(server.url).port;
      const post = async (headers: string) => {
        const answer = await rawRequest(
          server.url,
          `POST /api/mcp HTTP/1.1\r\n${headers}Content-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: ${PING.length}\r\n` +
            `Connection: close\r\n\r\n${PING}`,
        );
        return Number(/^HTTP\/1\.1 (\d+)/.exec(answer)?.[1]);
      };
      assert.equal(await post(`Host: 127.0.0.1:${port}\r\n`), 200);
      assert.equal(
        await post(`Host: localhost:${port}\r\nOrigin: http://localhost:${port}\r\n`),
        200,
      );
      assert.equal(await post("Host: docs.example.com\r\n"), 200);
      assert.equal(await post("Host: app.example.com\r\nOrigin: https://app.example.com\r\n"), 200);
      assert.equal(await post("Host: evil.example.com\r\n"), 403);
      assert.equal(
        await post("Host: evil.example.com\r\nOrigin: http://evil.example.com\r\n"),
        403,
      );
      assert.equal(
        await post(`Host: 127.0.0.1:${port}\r\nOrigin: http://evil.example.com\r\n`),
        403,
      );
      // The official SDK's client, over the network, against the running server.
      const client = new Client({ name: "content-feed-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`)));
      try {
        assert.equal(client.getServerVersion()?.name, "content-feed");
        const { tools } = await client.listTools();
        assert.equal(tools.length, 5);
        const found = await client.callTool({
          name: "search_content",
          arguments: { query: "welcome" },
        });
        // deno-lint-ignore no-explicit-any
        assert.deepEqual((found.structuredContent as any).data.map((item: any) => item.id), [
          "docs_doc_intro",
        ]);
        const { resources } = await client.listResources();
        assert.deepEqual(resources.map((r) => r.uri), ["https://docs.example.com/docs/intro.json"]);
        await client.ping();
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
      await removeSite(root);
    }
  });
});
