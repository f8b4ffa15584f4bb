import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { formatDay, formatTimestamp, parseDate } from "../src/util/dates.ts";

describe("parseDate", () => {
  it("reads YYYY-MM-DD as midnight UTC", () => {
    assert.equal(parseDate("2026-01-15"), Date.UTC(2026, 0, 15));
    assert.equal(parseDate("2026-01-15"), 1768435200000);
    assert.equal(parseDate("1999-12-31"), Date.UTC(1999, 11, 31));
    assert.equal(parseDate("1970-01-01"), 0);
  });

  it("ignores surrounding whitespace", () => {
    assert.equal(parseDate(" 2026-01-15 "), Date.UTC(2026, 0, 15));
  });

  it("reads ISO date-times in UTC (Z)", () => {
    assert.equal(parseDate("2026-01-15T10:20:30Z"), Date.UTC(2026, 0, 15, 10, 20, 30));
    assert.equal(parseDate("2026-01-15T10:20Z"), Date.UTC(2026, 0, 15, 10, 20));
    assert.equal(parseDate("2026-01-15t10:20:30z"), Date.UTC(2026, 0, 15, 10, 20, 30));
  });

  it("reads fractions of a second", () => {
    assert.equal(parseDate("2026-01-15T10:20:30.5Z"), Date.UTC(2026, 0, 15, 10, 20, 30, 500));
    assert.equal(parseDate("2026-01-15T10:20:30.123Z"), Date.UTC(2026, 0, 15, 10, 20, 30, 123));
  });

  it("applies a numeric offset", () => {
    assert.equal(parseDate("2026-01-15T10:20:30+02:00"), Date.UTC(2026, 0, 15, 8, 20, 30));
    assert.equal(parseDate("2026-01-15T10:20:30-05:30"), Date.UTC(2026, 0, 15, 15, 50, 30));
    assert.equal(parseDate("2026-01-15T10:20:30+00:00"), Date.UTC(2026, 0, 15, 10, 20, 30));
    // An offset can move the instant to another calendar day.
    assert.equal(parseDate("2026-01-01T01:00:00+03:00"), Date.UTC(2025, 11, 31, 22));
  });

  it("treats a date-time without a zone as UTC", () => {
    assert.equal(parseDate("2026-01-15T10:20:30"), Date.UTC(2026, 0, 15, 10, 20, 30));
    assert.equal(parseDate("2026-01-15T10:20"), Date.UTC(2026, 0, 15, 10, 20));
  });

  it("accepts a space instead of T", () => {
    assert.equal(parseDate("2026-01-15 10:20:30"), Date.UTC(2026, 0, 15, 10, 20, 30));
    assert.equal(parseDate("2026-01-15 10:20:30Z"), Date.UTC(2026, 0, 15, 10, 20, 30));
    assert.equal(parseDate("2026-01-15 10:20:30+01:00"), Date.UTC(2026, 0, 15, 9, 20, 30));
  });

  it("reads integers as Unix seconds", () => {
    assert.equal(parseDate(1768435200), Date.UTC(2026, 0, 15));
    assert.equal(parseDate(0), 0);
    assert.equal(parseDate(1768478400), Date.UTC(2026, 0, 15, 12));
  });

  it("rejects numbers that are not integers", () => {
    assert.equal(parseDate(1768435200.5), undefined);
    assert.equal(parseDate(Number.NaN), undefined);
    assert.equal(parseDate(Number.POSITIVE_INFINITY), undefined);
  });

  it("accepts a valid Date object", () => {
    assert.equal(parseDate(new Date(Date.UTC(2026, 0, 15))), Date.UTC(2026, 0, 15));
    assert.equal(parseDate(new Date(Number.NaN)), undefined);
  });

  it("rejects impossible calendar dates instead of rolling them over", () => {
    assert.equal(parseDate("2026-02-30"), undefined);
    assert.equal(parseDate("2026-13-01"), undefined);
    assert.equal(parseDate("2025-02-29"), undefined);
    assert.equal(parseDate("2026-00-10"), undefined);
    assert.equal(parseDate("2026-01-00"), undefined);
    assert.equal(parseDate("2026-04-31"), undefined);
    assert.equal(parseDate("2026-01-32"), undefined);
    assert.equal(parseDate("1900-02-29"), undefined); // divisible by 100, not by 400
  });

  it("accepts leap days of leap years", () => {
    assert.equal(parseDate("2024-02-29"), Date.UTC(2024, 1, 29));
    assert.equal(parseDate("2000-02-29"), Date.UTC(2000, 1, 29));
    assert.equal(parseDate("2026-12-31"), Date.UTC(2026, 11, 31));
    assert.equal(parseDate("2026-04-30"), Date.UTC(2026, 3, 30));
  });

  it("rejects impossible times and offsets", () => {
    assert.equal(parseDate("2026-01-15T25:00:00Z"), undefined);
    assert.equal(parseDate("2026-01-15T10:60:00Z"), undefined);
    assert.equal(parseDate("2026-01-15T10:20:61Z"), undefined);
    assert.equal(parseDate("2026-01-15T10:20:30+24:00"), undefined);
    assert.equal(parseDate("2026-02-30T10:20:30Z"), undefined);
  });

  it("rejects strings that are not dates", () => {
    for (
      const text of [
        "",
        "   ",
        "yesterday",
        "2026",
        "2026-01",
        "2026/01/15",
        "15-01-2026",
        "2026-1-5",
        "2026-01-15T",
        "2026-01-15X10:20:30",
        "2026-01-15T10:20:30 nonsense",
        "Jan 15 2026",
      ]
    ) {
      assert.equal(parseDate(text), undefined, JSON.stringify(text));
    }
  });

  it("rejects values of other types", () => {
    for (const value of [null, undefined, true, false, {}, [], ["2026-01-15"]]) {
      assert.equal(parseDate(value), undefined, JSON.stringify(value));
    }
  });
});

describe("formatDay", () => {
  it("prints the UTC calendar date", () => {
    assert.equal(formatDay(Date.UTC(2026, 0, 15)), "2026-01-15");
    assert.equal(formatDay(Date.UTC(2026, 0, 15, 23, 59, 59, 999)), "2026-01-15");
    assert.equal(formatDay(0), "1970-01-01");
    assert.equal(formatDay(Date.UTC(2024, 1, 29, 12)), "2024-02-29");
  });

  it("prints what Date's toISOString prints, for any time (its arithmetic and its fallback)", () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const times = [
      0,
      -1,
      1,
      -0.5,
      0.5,
      86_399_999,
      86_400_000,
      Date.UTC(1000, 0, 1),
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(1900, 1, 28),
      Date.UTC(2100, 2, 1) - 1,
      Date.UTC(2000, 1, 29),
      Date.UTC(-50, 5, 5),
      Date.UTC(12000, 0, 1),
    ];
    for (let i = 0; i < 20_000; i++) times.push(Math.floor((random() * 2 - 0.5) * 4e14));
    for (const ms of times) {
      assert.equal(formatDay(ms), new Date(ms).toISOString().slice(0, 10), String(ms));
    }
  });

  it("round-trips a parsed date", () => {
    assert.equal(formatDay(parseDate("2026-03-02")!), "2026-03-02");
    assert.equal(formatDay(parseDate("2026-01-01T01:00:00+03:00")!), "2025-12-31");
  });
});

describe("formatTimestamp", () => {
  it("prints UTC YYYY-MM-DD HH:MM:SS", () => {
    assert.equal(formatTimestamp(Date.UTC(2026, 10, 21, 9, 15, 2)), "2026-11-21 09:15:02");
    assert.equal(formatTimestamp(0), "1970-01-01 00:00:00");
  });

  it("drops milliseconds without rounding up", () => {
    assert.equal(formatTimestamp(Date.UTC(2026, 11, 31, 23, 59, 59, 999)), "2026-12-31 23:59:59");
  });
});
