/** Pieces every keyset-paged list route shares: its repeatable filters, instant bounds, the filter kept per URL and the URL of its next page. */
import { ServiceError } from '../contract/error-codes.js';
import { instantKey, isDateTime } from '../contract/index.js';
import { freezeMembers, frozenJson } from '../store/frozen-json.js';
import type { Parameters } from './parameters.js';

/** The instant key of a bound parameter (`name` is named when it is not a real instant); a plain date means midnight UTC. */
export function instantOf(name: string, value: string): string {
  const full = value.length === 10 ? `${value}T00:00:00Z` : value;
  if (!isDateTime(full)) {
    throw new ServiceError('invalid_request', 'the request has invalid parameters', [
      { message: `${name}: not a real date and time, got ${JSON.stringify(value.slice(0, 100))}` },
    ]);
  }
  return instantKey(full);
}

/** The next page's URL (`path` already under the base path and encoded): the same query values, plus the cursor. */
export function nextPageUrl(path: string, params: Parameters, cursor: string): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params.query)) {
    if (name === 'cursor' || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  search.append('cursor', cursor);
  return `${path}?${search.toString()}`;
}

/** A repeatable filter's values, each once and sorted (so the same set makes the same filter and cursor); undefined when none were given. */
export function setOf(value: unknown): string[] | undefined {
  const values = value as string[] | undefined;
  return values === undefined || values.length === 0 ? undefined : [...new Set(values)].sort();
}

const filtersOf = new WeakMap<Parameters, { filter: object; json: string }>();

/**
 * A list's store filter of checked parameters and the filter's JSON, made once per parameters
 * object: a URL asked again brings the same one (parsed-urls.ts), so its filter is not rebuilt
 * nor serialized again. The filter is frozen, as the store and the page cache only read it; the
 * page cache's key takes the same JSON (frozenJson).
 */
export function listFilterOf<F extends object>(params: Parameters, make: (params: Parameters) => F): { filter: F; json: string } {
  let kept = filtersOf.get(params);
  if (kept === undefined) {
    const filter = freezeMembers(make(params));
    kept = { filter, json: frozenJson(filter) };
    filtersOf.set(params, kept);
  }
  return kept as { filter: F; json: string };
}
