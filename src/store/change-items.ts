/**
 * A change feed entry as written: its record's identity in the feed, the lookup key the access log
 * notes, and the item's wire-ready JSON bytes (shaped once here, so a feed page only concatenates).
 */
import { recordKey } from '../contract/record-key.js';
import type { Change } from '../contract/change.js';
import type { ChangeRow, Upsert } from './store.js';

/** A record's feed entry, without its position (the store gives that). */
export type ChangeEntry = Omit<ChangeRow, 'kind'>;

/** The identity of a record in its project's feed: one entry per record, whatever its kind's key. */
export function feedRecord(table: 'customer' | 'alert' | 'execution', key: string, executionId?: string): string {
  return table === 'execution' ? JSON.stringify([table, key, executionId]) : JSON.stringify([table, key]);
}

/** The entry of a stored write; `changedAt` is when the service stores it (one instant per batch). */
export function changeOf(u: Upsert, changedAt: string): ChangeEntry {
  switch (u.kind) {
    case 'customer':
      return entry(u.project, feedRecord('customer', u.key), { kind: u.isCompany ? 'company' : 'customer', id: u.id ?? u.key, customerId: null }, u.etag, changedAt);
    case 'alert':
      return entry(u.project, feedRecord('alert', u.key), { kind: 'alert', id: u.id ?? u.key, customerId: u.customerId ?? null }, u.etag, changedAt);
    case 'execution':
      return entry(
        u.project,
        feedRecord('execution', u.customerKey, u.executionId),
        { kind: 'execution', id: u.executionId, customerId: u.customerId ?? u.customerKey },
        u.etag,
        changedAt,
      );
  }
}

/**
 * The entry of a record stored before the feed existed, from its stored columns and JSON (run once
 * per record by the upgrade's backfill, never on the read path). An execution's customer id is its
 * lookup key: the case it was written in was not kept.
 */
export function backfilledChange(
  table: 'customer' | 'alert' | 'execution',
  row: { project: string; key: string; executionId?: string; isCompany?: boolean; etag: string; body: Buffer | string },
  changedAt: string,
): ChangeEntry {
  if (table === 'execution') {
    return entry(row.project, feedRecord('execution', row.key, row.executionId), { kind: 'execution', id: row.executionId!, customerId: row.key }, row.etag, changedAt);
  }
  const doc = JSON.parse(typeof row.body === 'string' ? row.body : row.body.toString('utf8')) as { id?: unknown; customerId?: unknown };
  const id = typeof doc.id === 'string' ? doc.id : row.key;
  if (table === 'alert') {
    const customerId = typeof doc.customerId === 'string' ? doc.customerId : null;
    return entry(row.project, feedRecord('alert', row.key), { kind: 'alert', id, customerId }, row.etag, changedAt);
  }
  return entry(row.project, feedRecord('customer', row.key), { kind: row.isCompany ? 'company' : 'customer', id, customerId: null }, row.etag, changedAt);
}

function entry(project: string, record: string, what: Pick<Change, 'kind' | 'id' | 'customerId'>, etag: string, changedAt: string): ChangeEntry {
  const change: Change = { kind: what.kind, id: what.id, customerId: what.customerId, operation: 'upsert', etag, changedAt };
  return { project, record, recordKey: recordKey(what.id), etag, item: Buffer.from(JSON.stringify(change), 'utf8') };
}

/**
 * The entry that replaces an erased (or pruned) record's: the same identity, `erase`, no etag.
 * Its kind, id and customer id come from the record's entry before (the ids as written), else `fallback`.
 */
export function erasedChange(project: string, record: string, before: Buffer | string | undefined, fallback: Pick<Change, 'kind' | 'id' | 'customerId'>, changedAt: string): ChangeEntry {
  let what = fallback;
  if (before !== undefined) {
    const prev = JSON.parse(typeof before === 'string' ? before : before.toString('utf8')) as Change;
    what = { kind: prev.kind, id: prev.id, customerId: prev.customerId };
  }
  const change: Change = { kind: what.kind, id: what.id, customerId: what.customerId, operation: 'erase', etag: null, changedAt };
  return { project, record, recordKey: recordKey(what.id), etag: null, item: Buffer.from(JSON.stringify(change), 'utf8') };
}
