// Entry point for Deno Deploy (or any fetch-handler platform without a file
// system): serves a snapshot written by `deno task snapshot snapshot.json`,
// imported as a JSON module so no file is read at run time.
// Set BASE_URL in the project's environment variables to your domain.
import snapshot from "../snapshot.json" with { type: "json" };
import { createContentApi, type Snapshot } from "../mod.ts";

const api = await createContentApi({
  snapshot: snapshot as unknown as Snapshot,
  baseUrl: Deno.env.get("BASE_URL") || undefined,
});

export default { fetch: api.fetch };
