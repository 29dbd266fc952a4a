/**
 * Helpers for tests that start from an example record and change one value, addressed by
 * the same JSON Pointers the validator reports.
 */

function segments(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`not a JSON Pointer: ${pointer}`);
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parentOf(root: unknown, pointer: string): [Record<string, unknown>, string] {
  const parts = segments(pointer);
  const last = parts.pop();
  if (last === undefined) throw new Error('the root has no parent');
  let node = root;
  for (const part of parts) {
    if (node === null || typeof node !== 'object') throw new Error(`no value at ${pointer}`);
    node = (node as Record<string, unknown>)[part];
  }
  if (node === null || typeof node !== 'object') throw new Error(`no value at ${pointer}`);
  return [node as Record<string, unknown>, last];
}

/** Sets the value at `pointer` (creating nothing on the way) and returns `root`. */
export function setAt<T>(root: T, pointer: string, value: unknown): T {
  const [parent, key] = parentOf(root, pointer);
  parent[key] = value;
  return root;
}

/** Removes the property at `pointer` and returns `root`. */
export function deleteAt<T>(root: T, pointer: string): T {
  const [parent, key] = parentOf(root, pointer);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
  return root;
}

/** The value at `pointer`. */
export function getAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of segments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
