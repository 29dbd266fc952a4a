/** Counting a header's lines in a request: Node keeps only the first line of some headers (Authorization, Content-Type) in `headers`. */

/** How many lines named `name` (lower case) the raw headers hold. */
export function headerLines(raw: readonly string[], name: string): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) n++;
  return n;
}
