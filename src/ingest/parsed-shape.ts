/** What the envelope checks need of a parsed line, found in one walk over it. */

/** How a parsed JSON value is built: its object members, and whether it nests past a limit. */
export interface ParsedShape {
  /** Object members at every level (array items are not members); counted until `tooDeep` is found. */
  members: number;
  /** True when objects and arrays nest deeper than the limit, the value itself being level 1. */
  tooDeep: boolean;
}

/** Walks a parsed value once, without recursion (so any depth is safe), counting members and checking the nesting limit. */
export function parsedShape(value: unknown, maxDepth: number): ParsedShape {
  let members = 0;
  if (typeof value !== 'object' || value === null) return { members, tooDeep: false };
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return { members, tooDeep: true };
    if (Array.isArray(v)) {
      for (const item of v as unknown[]) {
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in v) {
        members++;
        const item = (v as Record<string, unknown>)[key];
        if (typeof item === 'object' && item !== null) {
          values.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return { members, tooDeep: false };
}
