// The edge entry point of docs/deploying.md, as it sits in a site's own
// project (copy it there as main.ts): Deno Deploy, or any fetch-handler
// platform without a file system. It serves the snapshot that
// `npx content-feed snapshot snapshot.json` wrote beside it, imported as a
// JSON module, so no file is read at run time; `content-feed` is the npm
// package, found through the project's package.json. Run it with
// `deno serve --allow-env=BASE_URL main.ts`; BASE_URL is your domain (else
// links are on the request's origin). tests/package_test.ts runs this file
// so, from a fresh project.
import snapshot from "./snapshot.json" with { type: "json" };
import { createContentApi, type Snapshot } from "content-feed";

const api = await createContentApi({
  snapshot: snapshot as unknown as Snapshot,
  baseUrl: Deno.env.get("BASE_URL") || undefined,
});

export default { fetch: api.fetch };
