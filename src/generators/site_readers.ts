// The generators' data config readers (SPEC 16.1) in one module, which the
// pipeline loads for a site that names a generator: a plain site's start
// never loads them.
export { parseSiteData, SITE_FILES } from "./site_data.ts";
export { parseEleventyData } from "./eleventy_data.ts";
