// `deno task snapshot <file> [--previous <old snapshot>]`: writes the parsed
// content tree, with its change journal, to one JSON file for deployments
// without a file system; serve it with `createContentApi({ snapshot })`.
// `--previous` continues the old snapshot's journal (SPEC 12), so clients
// keep their cursors across deploys. Also runs as `node scripts/snapshot.ts`.
import process from "node:process";
import { ConfigError } from "../mod.ts";
import { writeSnapshotFile } from "../src/snapshot.ts";

const args = process.argv.slice(2);
const at = args.indexOf("--previous");
const previous = at === -1 ? undefined : args[at + 1];
const out = args.find((arg, i) => !arg.startsWith("--") && (at === -1 || i !== at + 1));
if (!out || (at !== -1 && !previous)) {
  console.error(
    "usage: deno task snapshot <output.json> [--previous <old snapshot.json>]   (CONTENT_CONFIG names the config)",
  );
  process.exit(2);
}
try {
  const config = process.env.CONTENT_CONFIG || "content/services.yaml";
  const { files, warnings, snapshot } = await writeSnapshotFile(config, out, { previous });
  for (const w of warnings) console.error(`warning: ${w.file}: ${w.message}`);
  console.log(
    `wrote ${out}: ${files} files from ${config}; journal ${snapshot.journal.id} at ${snapshot.journal.head}`,
  );
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`content-feed: ${error.message}`);
  process.exit(1);
}
