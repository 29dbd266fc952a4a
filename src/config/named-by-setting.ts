/** Failures an operator fixes in a setting say which one, never its value (a URL may hold a password). */

/** `work`'s result, or its failure with `setting` (the setting or flag that chose what failed) put before its message. */
export async function namedBySetting<T>(setting: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof Error) err.message = `${setting}: ${err.message}`;
    throw err;
  }
}
