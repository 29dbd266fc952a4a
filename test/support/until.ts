/** Waiting in a test for something another process or the event loop brings about. */

/** Resolves once `ok` holds, checking every `everyMs`; fails naming `what` after `timeoutMs`. */
export async function until(what: string, ok: () => boolean | Promise<boolean>, timeoutMs: number, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${timeoutMs} ms)`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
