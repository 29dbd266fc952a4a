/**
 * The JSON of a frozen object, serialized once per object: a list's filter kept with a URL's
 * parameters is both bound into the cursor's query id (src/http/list-query.ts) and part of the
 * page cache's key (list-page-cache.ts), and the fields read are constants.
 */
const jsonOf = new WeakMap<object, string>();

/** JSON.stringify(value), kept for a frozen object (its members must be frozen too: the caller's promise). */
export function frozenJson(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value ?? null);
  let json = jsonOf.get(value);
  if (json === undefined) jsonOf.set(value, (json = JSON.stringify(value)));
  return json;
}

/** Freezes `value` and its array members (the only nested values a URL's parameters and a list's filter hold), so frozenJson may keep its JSON. */
export function freezeMembers<T extends object>(value: T): Readonly<T> {
  for (const member of Object.values(value)) if (Array.isArray(member)) Object.freeze(member);
  return Object.freeze(value);
}
