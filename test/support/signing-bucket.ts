/**
 * Signed document URLs (and so the ETags of records that hold documents) roll over when the wall
 * clock crosses a minute: a test comparing two answers' ETags must not straddle that moment.
 */

/** Waits for the next minute when fewer than `marginMs` remain of this one. */
export async function clearOfSigningRollover(marginMs = 5000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
