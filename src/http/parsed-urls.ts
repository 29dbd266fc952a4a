/**
 * The checked parameters of URLs asked again (an inbox's page, a saved search), kept per
 * operation: a URL seen before is not parsed and checked again. Only URLs that passed are kept,
 * bounded in count and bytes; what is kept is frozen, as every caller only reads it.
 */
import { LRUCache } from 'lru-cache';
import type { Operation } from '../contract/operations.js';
import { freezeMembers } from '../store/frozen-json.js';
import { parseParameters, type Parameters } from './parameters.js';

const MAX_URLS = 1024;
const MAX_BYTES = 1 << 20;
// Per kept URL beyond its text: the parameters' objects and the cache's entry.
const ENTRY_OVERHEAD = 256;
const sizeOf = (url: string): number => ENTRY_OVERHEAD + 2 * url.length;

const kept = new WeakMap<Operation, LRUCache<string, Parameters>>();

/** As parseParameters; the same URL of the same operation gives the same (frozen) object while it is kept. */
export function parametersOf(op: Operation, pathParams: Record<string, string>, url: string): Parameters {
  let urls = kept.get(op);
  if (urls === undefined) {
    urls = new LRUCache<string, Parameters>({ max: MAX_URLS, maxSize: MAX_BYTES, sizeCalculation: (_, key) => sizeOf(key) });
    kept.set(op, urls);
  }
  const hit = urls.get(url);
  if (hit !== undefined) return hit;
  const params = freeze(parseParameters(op, pathParams, url));
  // A URL larger than the whole budget is not kept (lru-cache would refuse it anyway).
  if (sizeOf(url) <= MAX_BYTES) urls.set(url, params);
  return params;
}

function freeze(params: Parameters): Parameters {
  freezeMembers(params.query);
  Object.freeze(params.path);
  return Object.freeze(params);
}
