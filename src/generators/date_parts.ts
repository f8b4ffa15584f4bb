// The calendar parts a permalink's date placeholders print (Hugo `:year`,
// Jekyll `:hour`, Eleventy `page.date | date`). A front-matter date written
// with an offset prints as written, as Hugo and Jekyll print it (the time in
// its own zone); otherwise the item's date (SPEC 4) at midnight.
import type { PageInput } from "./types.ts";

/** A date's parts as the generator prints them. */
export interface DateParts {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

const WRITTEN = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?/;

/**
 * The date parts of a page: its front-matter `date` as written (a YAML
 * timestamp that the parser made a `Date` in UTC; Unix seconds in UTC), else
 * its date (`YYYY-MM-DD`) at midnight.
 *
 * @example
 * ```ts
 * import { dateParts } from "./date_parts.ts";
 * dateParts({ path: "a.md", attrs: { date: "2013-05-06 02:12:52 +0200" }, date: "2013-05-06", title: "" }).hour; // 2
 * dateParts({ path: "a.md", attrs: {}, date: "2024-03-09", title: "" }).month; // 3
 * ```
 */
export function dateParts(input: PageInput): DateParts {
  const value = input.attrs.date;
  if (value instanceof Date && Number.isFinite(value.getTime())) return utcParts(value);
  if (typeof value === "number" && Number.isFinite(value)) return utcParts(new Date(value * 1000));
  const written = typeof value === "string" ? WRITTEN.exec(value.trim()) : null;
  const m = written ?? WRITTEN.exec(input.date) ?? ["", "1970", "1", "1"];
  return {
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: +(m[4] ?? 0),
    minute: +(m[5] ?? 0),
    second: +(m[6] ?? 0),
  };
}

function utcParts(date: Date): DateParts {
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    hour: date.getUTCHours(),
    minute: date.getUTCMinutes(),
    second: date.getUTCSeconds(),
  };
}

/** English month names, January first. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** English weekday names, Sunday first. */
export const WEEKDAYS = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

/**
 * The day of the week, 0 for Sunday.
 *
 * @example
 * ```ts
 * import { weekday } from "./date_parts.ts";
 * weekday({ year: 2024, month: 3, day: 9, hour: 0, minute: 0, second: 0 }); // 6
 * ```
 */
export function weekday(parts: DateParts): number {
  return dayOf(parts).getUTCDay();
}

/**
 * The day of the year, 1 for January 1st.
 *
 * @example
 * ```ts
 * import { yearDay } from "./date_parts.ts";
 * yearDay({ year: 2024, month: 3, day: 1, hour: 0, minute: 0, second: 0 }); // 61
 * ```
 */
export function yearDay(parts: DateParts): number {
  return Math.round((dayOf(parts).getTime() - Date.UTC(parts.year, 0, 1)) / 86_400_000) + 1;
}

/**
 * The ISO 8601 week-numbering year and week (Jekyll's `:w_year` and `:week`).
 *
 * @example
 * ```ts
 * import { isoWeek } from "./date_parts.ts";
 * isoWeek({ year: 2021, month: 1, day: 1, hour: 0, minute: 0, second: 0 }); // { year: 2020, week: 53 }
 * ```
 */
export function isoWeek(parts: DateParts): { year: number; week: number } {
  const date = dayOf(parts);
  // The Thursday of the date's week decides its year.
  date.setUTCDate(date.getUTCDate() + 3 - ((date.getUTCDay() + 6) % 7));
  const year = date.getUTCFullYear();
  const week = Math.floor((date.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 / 7) + 1;
  return { year, week };
}

/**
 * Pads a number to `width` digits with zeros.
 *
 * @example
 * ```ts
 * import { pad } from "./date_parts.ts";
 * pad(7, 2); // "07"
 * ```
 */
export function pad(value: number, width: number): string {
  return String(value).padStart(width, "0");
}

function dayOf(parts: DateParts): Date {
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  return date;
}
