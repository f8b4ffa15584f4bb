// The static build's row of bench.ts (issue 28): `content-feed build` of a
// site, one process from start to the folder renamed into place, against
// what it cannot do without: a first start of the server on the same site
// (process start to the first full feed response, no state folder) plus
// writing the same files, the same bytes, into a fresh folder
// (bench/write_bytes.ts). Medians over `repeats` interleaved rounds (the
// build first in even rounds, last in odd ones). Every output is enabled
// (llms.txt, llms-full.txt, feed.json), so the build writes all it can.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runProcess, startServer, stopServer } from "./servers.ts";
import { CONFIG } from "./site.ts";

/** What the row takes from bench.ts. */
export interface BuildBench {
  /** Content files of the site. */
  readonly size: number;
  readonly repeats: number;
  /** The generated site's folder (bench/site.ts). */
  readonly site: string;
  /** The command that runs a script of the project under the bench's runtime. */
  readonly command: (script: string, ...rest: string[]) => string[];
  /** Adds a row of the table (this size's). */
  readonly row: (measure: string, value: string, target: string) => void;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Measures the build row on a generated site and adds it. */
export async function buildRows(bench: BuildBench): Promise<void> {
  const { site, command } = bench;
  const config = join(site, "services-build.yaml");
  await writeFile(config, CONFIG.replace("mcp: ~", "mcp: ~, llms: ~, feed: ~"));
  const state = join(site, ".content-feed");
  const scratch = await mkdtemp(join(tmpdir(), "content-feed-bench-build-"));
  const out = join(scratch, "public");
  const builds: number[] = [];
  const starts: number[] = [];
  const writes: number[] = [];
  let written = { files: 0, bytes: 0 };
  try {
    const build = async () => {
      builds.push((await runProcess(command("cli.ts", "build", out, "--config", config))).ms);
    };
    const firstStart = async () => {
      await rm(state, { recursive: true, force: true });
      const t0 = performance.now();
      const server = await startServer(command("main.ts"), { CONTENT_CONFIG: config });
      await (await fetch(`${server.url}/api/content.json`)).arrayBuffer();
      starts.push(performance.now() - t0);
      await stopServer(server);
      await rm(state, { recursive: true, force: true });
    };
    for (let i = 0; i < bench.repeats; i++) {
      if (i % 2 === 0) {
        await build();
        await firstStart();
      } else {
        await firstStart();
        await build();
      }
      // The same files, the same bytes, written by the same runtime into a fresh folder.
      const copy = join(scratch, "copy");
      const { stdout } = await runProcess(command("bench/write_bytes.ts", out, copy));
      const result = JSON.parse(stdout);
      writes.push(result.ms);
      written = { files: result.files, bytes: result.bytes };
      await rm(copy, { recursive: true, force: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  bench.row(
    `build (${written.files} files, ${Math.round(written.bytes / 1024 / 1024)} MB) ÷ ` +
      `(first start + writing the same bytes)`,
    (median(builds) / (median(starts) + median(writes))).toFixed(2),
    "≤ 1.5",
  );
}
