// `deno task snapshot <file>`: writes the parsed content tree to one JSON file
// for deployments without a file system; serve it with
// `createContentApi({ snapshot })`. Also runs as `node scripts/snapshot.ts <file>`.
import process from "node:process";
import { ConfigError } from "../mod.ts";
import { writeSnapshotFile } from "../src/snapshot.ts";

const out = process.argv[2];
if (!out) {
  console.error("usage: deno task snapshot <output.json>   (CONTENT_CONFIG names the config)");
  process.exit(2);
}
try {
  const config = process.env.CONTENT_CONFIG || "content/services.yaml";
  const { files, warnings } = await writeSnapshotFile(config, out);
  for (const w of warnings) console.error(`warning: ${w.file}: ${w.message}`);
  console.log(`wrote ${out}: ${files} files from ${config}`);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`content-feed: ${error.message}`);
  process.exit(1);
}
