/**
 * What an answer costs of its key's rate budget, in tokens. The door takes one token before any
 * work; a larger answer owes the rest, debited once it is built (`RateLimiter.charge`), so a key
 * asking for heavy answers spends its budget in proportion to the work they cost.
 */

/** JSON bytes one token pays for: a page of 50 executions of ~5.8 KB (~270 KB) then costs about what 9 company reads cost. */
export const BYTES_PER_TOKEN = 32 * 1024;

/** Items of an executions page one token pays for: each row is a lookup and a copy even when small. */
export const ITEMS_PER_TOKEN = 50;

/** Factor on the cost of an answer compressed per request (br, or gzip when none is stored): compression costs about what serving does. */
export const PER_REQUEST_COMPRESSION_FACTOR = 2;

/** JSON bytes up to which an answer is compressed per request; a larger one is sent uncompressed. */
export const PER_REQUEST_COMPRESSION_MAX_BYTES = 256 * 1024;

/** Tokens an answer costs in all: one per started 32 KiB of JSON or per started 50 items, whichever is more (at least 1), doubled when compressed per request. */
export function answerCost(jsonBytes: number, items: number, compressedPerRequest: boolean): number {
  const units = Math.max(1, Math.ceil(jsonBytes / BYTES_PER_TOKEN), Math.ceil(items / ITEMS_PER_TOKEN));
  return compressedPerRequest ? units * PER_REQUEST_COMPRESSION_FACTOR : units;
}
