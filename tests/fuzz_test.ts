// Seeded fuzzing of the HTTP surface: random feed queries checked against an independent model of
// SPEC 6.1, path traversal attempts on the item route, over-long URLs, and other methods.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { LONG, md, site, type TestSite } from "./helpers.ts";
import { FEED_PARAMETERS } from "../src/routes/query.ts";

/** SPEC 6.2's names, written out here: the model does not take them from the code it checks. */
const OPT_IN = ["url", "body", "text", "sections", "lang", "version", "variant_of"];
const ITEM_FIELD_NAMES = [
  "id",
  "checksum",
  "type",
  "category",
  "uri",
  "link",
  "image",
  "title",
  "description",
  "authors",
  "tags",
  "date",
  "last_update",
  "time",
  ...OPT_IN,
];
const SORTS = ["feed", "date", "-date", "last_update", "-last_update", "title"];
/** What `since` combines with (SPEC 12). */
const WITH_SINCE = ["since", "type", "category", "lang", "version", "include", "fields", "limit"];
/**
 * The site's locales and versions (SPEC 16.3): none, so every `lang` and
 * `version` is a 400 here, and a near-valid query never names them.
 */
const LANGS: readonly string[] = [];
const VERSIONS: readonly string[] = [];

const ORIGIN = "http://localhost:8000";
const PROBLEM = "application/problem+json";
const SEED = 0x5eed2026;

/** mulberry32: a tiny seeded PRNG, so every run sends the same requests. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Random {
  next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  repeat(n: number, fn: () => string): string {
    let out = "";
    for (let i = 0; i < n; i++) out += fn();
    return out;
  }
}

const TYPES = ["academy", "blog", "docs", "faq", "pages"];
const CATEGORIES = ["course", "module", "lesson", "post", "doc", "question", "page"];
const KNOWN: readonly string[] = FEED_PARAMETERS;
const BOOLEANS = ["true", "false", "1", "0"];

const FILES = {
  "academy/course.md": md({ title: "Course", date: "2025-06-01", tags: ["Deno"] }, LONG),
  "academy/course/mod.md": md({ title: "Module", date: "2025-06-02" }, LONG),
  "academy/course/mod/lesson.md": md({ title: "Lesson", date: "2025-06-03" }, LONG),
  "blog/2026-03-14-hello.md": md({ title: "Hello", authors: ["Ana Pérez"], tags: ["Guía"] }, LONG),
  "blog/2025-12-01-old.md": md({ title: "Old", tags: ["Deno", "Node"] }, LONG),
  "docs/intro.md": md({ title: "Intro", date: "2026-01-15", tags: ["deno"] }, LONG),
  "docs/intro/setup.md": md({ title: "Setup", date: "2026-02-01", searchable: false }, LONG),
  "faq/why.md": md({ title: "Why?", date: "2024-03-09", author: "Bob" }, LONG),
  "pages/about.md": md({ title: "About", date: "2026-03-30" }, LONG),
  "secret.md": md({ title: "Top secret" }, "TOP-SECRET-CONTENT"),
};

// ---------------------------------------------------------------------------------------------
// An independent model of SPEC 6.1 (plus its decisions in docs/spec.md: an unknown or repeated
// parameter is a 400 even with an empty value).

interface Expectation {
  /** Parameters that must make the query a 400 (the detail names one of them). */
  bad: Set<string>;
  /** A well-formed cursor of some other journal: a 410 is the answer (SPEC 12). */
  gone: boolean;
  /** Parameters whose value the SPEC leaves open (leading zeros past 6 digits, unsafe integers). */
  unsure: Set<string>;
}

function expectFor(params: URLSearchParams): Expectation {
  const bad = new Set<string>();
  const unsure = new Set<string>();
  const seen = new Map<string, string>();
  for (const [key, value] of params) {
    // SPEC 6.1 as implemented: `utm_…` and `_…` (cache-busters) are read by no route, never a 400.
    if (key.startsWith("_") || key.startsWith("utm_")) continue;
    if (!KNOWN.includes(key) || seen.has(key)) bad.add(key);
    if (!seen.has(key)) seen.set(key, value);
  }
  const get = (key: string) => seen.get(key) || undefined;
  const check = (key: string, ok: (v: string) => boolean) => {
    const v = get(key);
    if (v !== undefined && !ok(v)) bad.add(key);
  };
  check("type", (v) => TYPES.includes(v));
  check("category", (v) => CATEGORIES.includes(v));
  check("lang", (v) => LANGS.includes(v));
  check("version", (v) => VERSIONS.includes(v));
  check("search", (v) => [...v].length <= 200);
  check("year", (v) => /^[0-9]{4}$/.test(v));
  check("month", (v) => /^(0?[1-9]|1[0-2])$/.test(v));
  if (get("month") !== undefined && get("year") === undefined) bad.add("month");
  check("indexable", (v) => BOOLEANS.includes(v));
  check("searchable", (v) => BOOLEANS.includes(v));
  // include and fields (SPEC 6.2): comma lists of field names, blanks ignored.
  check("include", (v) => v.split(",").every((name) => ["", ...OPT_IN].includes(name.trim())));
  check("fields", (v) => v.split(",").every((n) => ["", ...ITEM_FIELD_NAMES].includes(n.trim())));
  check("sort", (v) => SORTS.includes(v));
  check("updated_since", (v) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
    if (!match || match[1] === "0000") return false;
    const day = new Date(Date.UTC(+match[1], +match[2] - 1, +match[3]));
    return day.getUTCMonth() === +match[2] - 1 && day.getUTCDate() === +match[3];
  });
  let gone = false;
  const since = get("since");
  if (since !== undefined) {
    const cursor = /^[0-9a-z]{1,32}\.(0|[1-9][0-9]{0,15})$/.exec(since);
    if (since !== "0" && !(cursor && Number.isSafeInteger(+cursor[1]))) bad.add("since");
    else gone = since !== "0";
    // Any other filter with since would make deletions ambiguous.
    for (const key of seen.keys()) {
      if (get(key) !== undefined && KNOWN.includes(key) && !WITH_SINCE.includes(key)) bad.add(key);
    }
  }
  const limit = get("limit");
  if (limit !== undefined) {
    if (!/^[0-9]+$/.test(limit) || +limit < 1 || +limit > 10000) bad.add("limit");
    else if (limit.length > 6) unsure.add("limit");
  }
  const page = get("page");
  if (page !== undefined) {
    if (!/^[0-9]+$/.test(page) || +page < 1) bad.add("page");
    else if (!Number.isSafeInteger(+page)) unsure.add("page");
    if (limit === undefined) bad.add("page");
  }
  return { bad, unsure, gone };
}

// ---------------------------------------------------------------------------------------------
// Query generation: raw text, so that odd encodings reach the URL parser as written.

const ODD_NAMES = [
  "q",
  "Type",
  "TYPE",
  "tags",
  "authors",
  "per_page",
  "offset",
  "sort",
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "ñ",
  "日付",
  "%74ype", // "type", encoded
  "lim%69t",
  "type%00",
  "%zz",
  "limit ",
  "+limit",
  "page[]",
  "a.b",
  "",
];

const KEYWORDS = [
  ...TYPES,
  ...CATEGORIES,
  ...BOOLEANS,
  "yes",
  "no",
  "TRUE",
  "toString",
  "constructor",
  "__proto__",
  "valueOf",
  "hasOwnProperty",
  "2026",
  "2025",
  "0000",
  "20266",
  "03",
  "3",
  "12",
  "13",
  "00",
  "0",
  "-1",
  "1e3",
  "0x10",
  "10000",
  "10001",
  "000010",
  "0000010",
  "9007199254740993",
  "Infinity",
  "NaN",
  "２０２６", // full-width digits
  "deno",
  "Guía",
  "ana-perez",
  "Ana Pérez",
  "null",
  "undefined",
];

const UNICODE = ["é", "ü", "ñ", "日本", "🦕", "\u0301", "ﬁ", "İ", "ß", "\u200b", "עברית", "Ω"];
const ENCODED = ["%20", "%C3%A9", "%2B", "%26", "%3D", "%25", "%F0%9F%A6%95", "%41", "%0A"];
const INVALID = ["%zz", "%E0%A4%A", "%", "%%", "%C3", "%FF", "%C0%AE", "%ED%A0%80", "%2", "%g1"];

function randomValue(r: Random): string {
  switch (r.int(0, 9)) {
    case 0:
      return r.repeat(r.int(1, 8), () => String(r.int(0, 9)));
    case 1:
      return r.repeat(r.int(1, 12), () => r.pick([..."abcXYZ-_.~ +"]));
    case 2:
      return r.repeat(r.int(1, 4), () => r.pick(UNICODE));
    case 3:
      return r.repeat(r.int(1, 4), () => r.pick(ENCODED));
    case 4:
      return r.pick(INVALID) + (r.chance(0.5) ? r.pick(KEYWORDS) : "");
    case 5:
      return "";
    case 6: // very long: around the search limit, or far over it
      return r.pick(["a", "é", "%41", "🦕", "ab "]).repeat(
        r.pick([199, 200, 201, r.int(202, 1500)]),
      );
    case 7:
    case 8:
      return r.pick(KEYWORDS);
    default: // a mix
      return r.pick(KEYWORDS) + r.pick([...ENCODED, ...INVALID, ...UNICODE, "&", "=", "+", ";"]) +
        r.pick(KEYWORDS);
  }
}

function randomName(r: Random): string {
  return r.chance(0.75) ? r.pick(KNOWN) : r.pick(ODD_NAMES);
}

function randomPiece(r: Random): string {
  const name = randomName(r);
  switch (r.int(0, 11)) {
    case 0:
      return name; // no "="
    case 1:
      return `=${randomValue(r)}`; // no name
    case 2:
      return `${name}==${randomValue(r)}`;
    case 3:
      return ""; // "&&"
    case 4:
      return `${name}=${randomValue(r)}=${randomValue(r)}`;
    default:
      return `${name}=${randomValue(r)}`;
  }
}

/** A value the model accepts for a known parameter (any text for tag, author, search). */
function validValue(r: Random, name: string): string {
  switch (name) {
    case "type":
      return r.pick(TYPES);
    case "category":
      return r.pick(CATEGORIES);
    case "year":
      return String(r.int(2023, 2027));
    case "month":
      return r.chance(0.5) ? String(r.int(1, 12)) : String(r.int(1, 12)).padStart(2, "0");
    case "indexable":
    case "searchable":
      return r.pick(BOOLEANS);
    case "limit":
      return String(r.chance(0.8) ? r.int(1, 5) : r.int(1, 10000));
    case "page":
      return String(r.int(1, 4));
    case "include":
      return r.pick(["url", "url,url", " url", "url,", "body", "text,sections", "url,body"]);
    case "fields":
      return r.pick(["id", "id,checksum,last_update", "title,type", "date, url", "time,"]);
    case "sort":
      return r.pick(SORTS);
    case "updated_since":
      return r.pick(["2025-01-01", "2026-03-01", "2030-12-31"]);
    case "since":
      return r.pick(["0", "0", "k3v9q2.4", "0"]);
    default:
      return r.chance(0.5) ? r.pick(KEYWORDS) : randomValue(r);
  }
}

/** Chaos: anything goes, so several problems usually come at once. */
function chaosQuery(r: Random): string {
  const pieces = Array.from({ length: r.int(0, 5) }, () => randomPiece(r));
  if (r.chance(0.15) && pieces.length > 0) pieces.push(pieces[0]); // a repeated parameter
  let query = pieces.join(r.chance(0.9) ? "&" : r.pick(["&&", "&amp;", ";"]));
  if (r.chance(0.05)) query = `&${query}`;
  if (r.chance(0.05)) query = `${query}&`;
  return query;
}

/** Near-valid: distinct known parameters with accepted values, and at most one mutation. */
function nearValidQuery(r: Random): string {
  const chosen = new Set<string>();
  const wanted = r.int(1, 4);
  const valued = KNOWN.filter((name) => !["lang", "version"].includes(name));
  while (chosen.size < wanted) chosen.add(r.pick(valued));
  if (chosen.has("month")) chosen.add("year");
  if (chosen.has("page")) chosen.add("limit");
  const pieces = [...chosen].map((name) => [name, validValue(r, name)]);
  if (r.chance(0.7)) {
    const target = pieces[r.int(0, pieces.length - 1)];
    switch (r.int(0, 5)) {
      case 0:
        target[1] = r.pick(KEYWORDS);
        break;
      case 1:
        target[1] = randomValue(r);
        break;
      case 2:
        target[1] = `${target[1]}${r.pick([...INVALID, ...ENCODED, ...UNICODE, " ", "+"])}`;
        break;
      case 3:
        pieces.push([r.pick(ODD_NAMES), randomValue(r)]);
        break;
      case 4:
        pieces.push([target[0], r.chance(0.5) ? target[1] : ""]);
        break;
      default:
        target[1] = "";
    }
  }
  for (let i = pieces.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [pieces[i], pieces[j]] = [pieces[j], pieces[i]];
  }
  return pieces.map(([name, value]) => `${name}=${value}`).join("&");
}

function randomQuery(r: Random): string {
  return r.chance(0.4) ? chaosQuery(r) : nearValidQuery(r);
}

// ---------------------------------------------------------------------------------------------

/** Whether a problem's detail names a parameter (as written or JSON-quoted). */
function names(detail: string, parameter: string): boolean {
  return detail.includes(JSON.stringify(parameter)) ||
    (parameter !== "" && detail.includes(parameter));
}

let s: TestSite;
before(async () => {
  s = await site(FILES);
});
after(async () => {
  await s.close();
});

describe("fuzzing GET /api/content.json", () => {
  it("1,500 seeded random queries: never a 5xx; every 400 names a bad parameter", async () => {
    const r = new Random(SEED);
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1500; i++) {
      const query = randomQuery(r);
      const url = `${ORIGIN}/api/content.json?${query}`;
      const request = new Request(url);
      const response = await s.api.fetch(request);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const text = await response.text();
      const type = response.headers.get("content-type");
      const fail = (why: string) => failures.push(`#${i} ?${query.slice(0, 120)}: ${why}`);
      if (response.status >= 500) {
        fail(`${response.status} ${text.slice(0, 200)}`);
        continue;
      }
      if (request.url.length > 8192) {
        if (response.status !== 414 || type !== PROBLEM) {
          fail(`expected 414, got ${response.status}`);
        }
        continue;
      }
      const { bad, unsure, gone } = expectFor(new URL(request.url).searchParams);
      if (response.status === 400) {
        if (type !== PROBLEM) {
          fail(`400 with ${type}`);
          continue;
        }
        const body = JSON.parse(text);
        const allowed = bad.size > 0 ? bad : unsure;
        if (body.status !== 400 || body.title !== "Bad Request" || body.type !== "about:blank") {
          fail(`bad problem document ${text.slice(0, 200)}`);
        } else if (allowed.size === 0) {
          fail(`400 for a valid query: ${body.detail}`);
        } else if (![...allowed].some((p) => names(body.detail, p))) {
          fail(`detail names none of ${JSON.stringify([...allowed])}: ${body.detail}`);
        }
        continue;
      }
      if (response.status === 410 && gone && bad.size === 0 && type === PROBLEM) continue;
      if (response.status !== 200) {
        fail(`unexpected ${response.status} ${text.slice(0, 200)}`);
        continue;
      }
      if (bad.size > 0) {
        fail(`200 although ${JSON.stringify([...bad])} should be rejected`);
        continue;
      }
      // A 200: the feed matches the filters it was given.
      const params = new URL(request.url).searchParams;
      const feed = JSON.parse(text);
      const get = (key: string) => params.get(key) || undefined;
      // deno-lint-ignore no-explicit-any
      const data: any[] = feed.data;
      if (feed.meta.count !== data.length) fail("meta.count is not data.length");
      if (feed.meta.total < feed.meta.count) fail("meta.total < meta.count");
      const limit = get("limit");
      if (limit !== undefined && data.length > +limit) fail("more items than limit");
      const type_ = get("type"), category = get("category"), year = get("year");
      // `fields` may leave a field out: a filter is checked where its field is served.
      const has = (d: Record<string, unknown>, key: string) => key in d;
      if (type_ !== undefined && data.some((d) => has(d, "type") && d.type !== type_)) {
        fail("type filter");
      }
      if (
        category !== undefined && data.some((d) => has(d, "category") && d.category !== category)
      ) {
        fail("category filter");
      }
      if (
        year !== undefined && data.some((d) => has(d, "date") && !d.date.startsWith(`${year}-`))
      ) {
        fail("year filter");
      }
      const month = get("month");
      if (
        month !== undefined && data.some((d) => has(d, "date") && +d.date.slice(5, 7) !== +month)
      ) {
        fail("month filter");
      }
      const fieldsAsked = get("fields");
      if (fieldsAsked !== undefined && data.some((d) => !has(d, "id"))) fail("fields without id");
      if (["false", "0"].includes(get("indexable") ?? "") && data.length > 0) {
        fail("indexable=false must give an empty list");
      }
      if (text.includes("TOP-SECRET")) fail("a file outside the plugins leaked");
    }
    assert.deepEqual(failures.slice(0, 15), [], `${failures.length} failures`);
    // The generator reaches every outcome.
    assert.ok((statuses.get(200) ?? 0) > 100, JSON.stringify([...statuses]));
    assert.ok((statuses.get(400) ?? 0) > 100, JSON.stringify([...statuses]));
  });

  it("rejects values that are names of Object.prototype members", async () => {
    const cases: [string, string][] = [
      ["indexable=toString", "indexable"],
      ["searchable=constructor", "searchable"],
      ["indexable=__proto__", "indexable"],
      ["searchable=hasOwnProperty", "searchable"],
      ["type=constructor", "type"],
      ["category=toString", "category"],
    ];
    for (const [query, parameter] of cases) {
      const response = await s.request(`/api/content.json?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get("content-type"), PROBLEM);
      const body = JSON.parse(await response.text());
      assert.ok(body.detail.includes(parameter), body.detail);
    }
  });
});

describe("path traversal on the item route", () => {
  const fixed = [
    "/docs/../services.yaml.json",
    "/docs/..%2f..%2fservices.yaml.json",
    "/docs/..%2F..%2Fsecret.json",
    "/docs/%2e%2e%2f%2e%2e%2fservices.yaml.json",
    "/docs/%2e%2e/%2e%2e/etc/passwd.json",
    "/%2e%2e/%2e%2e/etc/passwd.json",
    "/docs/%252e%252e%252fservices.yaml.json",
    "/docs/%252e%252e/%252e%252e/secret.json",
    "/docs/..\\..\\services.yaml.json",
    "/docs/..%5c..%5csecret.json",
    "/docs/%5c..%5c..%5cetc%5cpasswd.json",
    "/docs/intro%00.json",
    "/docs/%00.json",
    "/docs/intro.json%00",
    "/docs/secret%00.md.json",
    "/docs/%00/../secret.json",
    "/docs//etc/passwd.json",
    "/docs/....//....//secret.json",
    "/docs/%c0%ae%c0%ae/secret.json",
    "/docs/%e0%80%ae%e0%80%ae/secret.json",
    "/docs/%2fetc%2fpasswd.json",
    "/docs/file:%2f%2f%2fetc%2fpasswd.json",
    "/docs/intro.md.json",
    "/docs/intro/../../secret.json",
    "/..%2fsecret.json",
    "/docs%2f..%2fsecret.json",
    "/%2e%2e%2fsecret.json",
  ];

  async function assertNotFound(path: string): Promise<void> {
    const response = await s.api.fetch(new Request(ORIGIN + path));
    assert.equal(response.status, 404, path);
    assert.equal(response.headers.get("content-type"), PROBLEM, path);
    const text = await response.text();
    const body = JSON.parse(text);
    assert.deepEqual([body.type, body.title, body.status], ["about:blank", "Not Found", 404]);
    for (const leak of ["TOP-SECRET", "service.content.config", "root:", LONG.slice(0, 30)]) {
      assert.ok(!text.includes(leak), `${path} leaks ${leak}`);
    }
  }

  it("answers every traversal attempt with a 404 problem", async () => {
    // The route itself works.
    assert.equal((await s.request("/docs/intro.json")).status, 200);
    assert.equal((await s.request("/docs/intro/setup.json")).status, 200);
    for (const path of fixed) await assertNotFound(path);
  });

  it("answers 300 seeded random traversal paths with a 404 problem", async () => {
    const r = new Random(SEED + 1);
    const parts = [
      "..",
      "%2e%2e",
      "%2E%2E",
      "%252e%252e",
      ".",
      "%2e",
      "\\",
      "%5c",
      "%2f",
      "%252f",
      "%00",
      "%2500",
      "etc",
      "passwd",
      "services.yaml",
      "secret",
      "secret.md",
      "~",
      "%c0%ae",
      "%zz",
      "",
      "....",
      "%ff",
    ];
    for (let i = 0; i < 300; i++) {
      const type = r.pick([...TYPES, "..", "%2e%2e", "api", "x"]);
      const segments = Array.from(
        { length: r.int(1, 6) },
        () => r.repeat(r.int(1, 3), () => r.pick(parts)),
      );
      const path = `/${type}/${segments.join(r.pick(["/", "%2f", "\\"]))}${
        r.pick([".json", ".json", "%00.json", ".json%00", ".md.json"])
      }`;
      await assertNotFound(path);
    }
  });
});

describe("over-long URLs", () => {
  it("answers URLs over 8192 characters with 414 and shorter ones never with 414", async () => {
    const r = new Random(SEED + 2);
    for (let i = 0; i < 60; i++) {
      const length = r.chance(0.5) ? r.int(8193, 40000) : r.int(30, 8192);
      const where = r.pick(["query", "path", "item"]);
      const prefix = where === "query"
        ? `${ORIGIN}/api/content.json?search=`
        : where === "path"
        ? `${ORIGIN}/`
        : `${ORIGIN}/docs/`;
      const url = prefix + "x".repeat(Math.max(0, length - prefix.length));
      const method = r.pick(["GET", "HEAD"]);
      const request = new Request(url, { method });
      const response = await s.api.fetch(request);
      await response.arrayBuffer();
      assert.ok(response.status < 500, `${response.status} for ${url.length}`);
      assert.equal(response.status === 414, request.url.length > 8192, `${method} ${url.length}`);
      if (response.status === 414) {
        assert.equal(response.headers.get("content-type"), PROBLEM);
      }
    }
  });
});

describe("other methods", () => {
  it("answers 400 seeded random non-GET requests with 405 or 404, never a 5xx", async () => {
    const r = new Random(SEED + 3);
    const methods = ["POST", "PUT", "DELETE", "PATCH", "patch", "PURGE", "PROPFIND", "M-SEARCH"];
    const fixedRoutes = [
      "/api/content.json",
      "/api/openapi.json",
      "/sitemap.xml",
      "/api/health",
      "/",
    ];
    const paths = [
      ...fixedRoutes,
      "/docs/intro.json",
      "/blog/2026-03-14-hello.json",
      "/docs/nope.json",
      "/nope",
      "/api/",
      "/sitemap.xml.gz",
    ];
    for (let i = 0; i < 400; i++) {
      const method = r.pick(methods);
      const base = r.pick(paths);
      const path = r.chance(0.3) ? `${base}?${randomQuery(r)}` : base;
      const init: RequestInit = { method };
      if (method !== "DELETE" && r.chance(0.3)) init.body = randomValue(r);
      const response = await s.api.fetch(new Request(ORIGIN + path, init));
      const label = `${method} ${path.slice(0, 80)}`;
      const text = await response.text();
      if (new URL(ORIGIN + path).href.length > 8192) {
        assert.equal(response.status, 414, label);
        continue;
      }
      assert.ok([404, 405].includes(response.status), `${label}: ${response.status} ${text}`);
      assert.equal(response.headers.get("content-type"), PROBLEM, label);
      assert.equal(JSON.parse(text).status, response.status, label);
      if (fixedRoutes.includes(base)) assert.equal(response.status, 405, label);
      if (response.status === 405) assert.equal(response.headers.get("allow"), "GET, HEAD");
      if (["/nope", "/api/", "/sitemap.xml.gz"].includes(base)) {
        assert.equal(response.status, 404, label);
      }
    }
  });
});
