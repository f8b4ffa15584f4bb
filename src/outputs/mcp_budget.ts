// The byte budget of one MCP response (SPEC 14, issue "bounded answers"):
// what a request may take out, whatever it asks for, so that a small batch
// of calls (or of resource reads) can never be answered with hundreds of
// megabytes.
import type { ToolResult } from "./mcp_tools.ts";

/** The bytes of tool results one response holds, and the results that would pass them. */
export interface AnswerBudget {
  /**
   * When nothing is left of the budget: the tool error for a call of that
   * tool, given without running the call; else `undefined`.
   */
  spent(): ((tool: string) => ToolResult) | undefined;
  /**
   * Counts a call's result against the budget: the result when it fits in
   * what is left, else a tool error saying how big it was and how to ask
   * for less (and the budget is not charged for it).
   */
  take(tool: string, result: ToolResult): ToolResult;
  /**
   * Counts `bytes` of another answer (`resources/read`) against the budget:
   * `undefined` when they fit in what is left, else the message that says
   * they do not (and the budget is not charged).
   */
  charge(what: string, bytes: number): string | undefined;
}

/** How to ask a tool for less, by tool: said in the error of a result too large. */
const ASK_FOR_LESS: Record<string, string> = {
  list_content: "pass a smaller limit, and page with page=2, 3, …",
  search_content: "pass a smaller limit",
  get_content: "call get_content alone, not in a batch, or read the item's .md URL over HTTP",
  list_changes: "pass a smaller limit, and call again with meta.cursor while meta.more is true",
  list_tags: "call list_tags alone, not in a batch",
  "resources/read": "read the resource alone, not in a batch, or GET its .md URL over HTTP",
};

/**
 * The bytes of a text as UTF-8, and with JSON's escapes when `escaped`
 * (a quote or backslash two bytes, a control character up to six).
 * Counted without encoding it: a result may be megabytes.
 */
function textBytes(text: string, escaped: boolean): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      bytes += escaped && (code === 0x22 || code === 0x5c) ? 2 : escaped && code < 0x20 ? 6 : 1;
    } else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one four-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The bytes a text takes in the JSON of a response: UTF-8, with JSON's
 * escapes, between quotes.
 *
 * @example
 * ```ts
 * import { jsonTextBytes } from "./mcp_budget.ts";
 * jsonTextBytes('a"é'); // 7: two quotes, a, an escaped quote, two bytes of é
 * ```
 */
export function jsonTextBytes(text: string): number {
  return textBytes(text, true) + 2;
}

/**
 * The bytes a tool result takes in the response: its text blocks, and its
 * `structuredContent` as JSON (the same answer again, as the protocol
 * has it).
 */
function resultBytes(result: ToolResult): number {
  let bytes = 0;
  for (const block of result.content) bytes += jsonTextBytes(block.text) + 32; // the block's keys
  if (result.structuredContent !== undefined) {
    bytes += textBytes(JSON.stringify(result.structuredContent), false) + 24;
  }
  return bytes;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A budget of `limit` bytes of tool results for one MCP response. Results
 * are counted in the order the calls are answered; a result that does not
 * fit in what is left becomes a tool error (`isError`, so a model can read
 * it and ask again) that says its size, the budget, and how to ask for less.
 *
 * @example
 * ```ts
 * import { createAnswerBudget } from "./mcp_budget.ts";
 * const budget = createAnswerBudget(100);
 * budget.take("list_tags", { content: [{ type: "text", text: "[]" }] }).isError; // undefined
 * budget.take("list_tags", { content: [{ type: "text", text: "x".repeat(200) }] }).isError; // true
 * ```
 */
export function createAnswerBudget(limit: number): AnswerBudget {
  let used = 0;
  const message = (tool: string, size: number | undefined) =>
    `this answer ${size === undefined ? "" : `(${megabytes(size)}) `}does not fit: one ` +
    `MCP response holds at most ${megabytes(limit)} of tool results, and ` +
    `${megabytes(Math.max(0, limit - used))} of this response's were left; ` +
    (ASK_FOR_LESS[tool] ?? "ask for less");
  const refusal = (tool: string, size: number | undefined): ToolResult => ({
    content: [{ type: "text", text: message(tool, size) }],
    isError: true,
  });
  return {
    spent: () => used >= limit ? (tool) => refusal(tool, undefined) : undefined,
    take(tool, result) {
      const size = resultBytes(result);
      if (used + size > limit) return refusal(tool, size);
      used += size;
      return result;
    },
    charge(what, bytes) {
      if (used + bytes > limit) return message(what, bytes);
      used += bytes;
      return undefined;
    },
  };
}
