/**
 * The decision half of a bulk write, in plain JS: given what the database held before the batch,
 * the outcome of every item and the rows to write. Items are decided in order against a running
 * state, so a key seen twice in one batch is judged against its earlier occurrence, exactly as
 * the row-by-row SQLite adapter does.
 */
import type { AlertUpsert, CompanyListingRow, CustomerUpsert, ExecutionUpsert, Upsert, WriteOutcome } from '../store.js';
import { versionOutcome } from '../version-outcome.js';
import { erasedOutcome } from '../erasure.js';

/** A record's stored version, as the version rule needs it. */
export interface PrevVersion {
  etag: string;
  versionKey: string | null;
}

/** A stored execution: its version plus the scenario rows indexed under its old sort key. */
export interface PrevExecution extends PrevVersion {
  scenarioIds: string[];
}

/** What the database held before the batch, by `rowKey`. */
export interface PrevState {
  customers: Map<string, PrevVersion>;
  alerts: Map<string, PrevVersion>;
  executions: Map<string, PrevExecution>;
}

/** An execution to write, with the scenario index rows of its previous version to remove. */
export interface ExecutionWrite {
  item: ExecutionUpsert;
  scenarioIds: string[];
  previous: PrevExecution | undefined;
}

/** The outcome of every item, and the last stored version of each row to write. */
export interface BatchPlan {
  outcomes: WriteOutcome[];
  customers: CustomerUpsert[];
  alerts: AlertUpsert[];
  executions: ExecutionWrite[];
  /** Customers named by executions (stored or not), inserted bare when not yet known. */
  namedCustomers: { project: string; customerKey: string }[];
  /** Company list rows copied as they are (a copy's; an import's come with their customers). */
  companyListings?: CompanyListingRow[];
}

/** Identity of a row inside a batch: parts joined by NUL, which no key contains. */
export function rowKey(...parts: string[]): string {
  return parts.join('\u0000');
}

/** The keys each table must be read at before the batch is decided, per project. */
export interface BatchKeys {
  customers: Map<string, Set<string>>;
  alerts: Map<string, Set<string>>;
  executions: Map<string, Map<string, { customerKey: string; executionId: string }>>;
}

/** Collects, per project, the distinct keys the batch touches. */
export function batchKeys(items: readonly Upsert[]): BatchKeys {
  const keys: BatchKeys = { customers: new Map(), alerts: new Map(), executions: new Map() };
  const setOf = (m: Map<string, Set<string>>, project: string): Set<string> => {
    let s = m.get(project);
    if (s === undefined) m.set(project, (s = new Set()));
    return s;
  };
  for (const item of items) {
    if (item.kind === 'customer') setOf(keys.customers, item.project).add(item.key);
    else if (item.kind === 'alert') setOf(keys.alerts, item.project).add(item.key);
    else {
      let m = keys.executions.get(item.project);
      if (m === undefined) keys.executions.set(item.project, (m = new Map()));
      m.set(rowKey(item.customerKey, item.executionId), { customerKey: item.customerKey, executionId: item.executionId });
    }
  }
  return keys;
}

/** The later of two erasure instant keys. */
function later(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined || a > b ? a : b;
}

/**
 * Decides every item against the state before the batch, updated as items are stored, and
 * against the erasures it meets (`erased`, by rowKey(project, kind, key): see readErasures).
 */
export function planBatch(items: readonly Upsert[], prev: PrevState, erased: ReadonlyMap<string, string> = new Map()): BatchPlan {
  const customers = new Map<string, CustomerUpsert>();
  const alerts = new Map<string, AlertUpsert>();
  const executions = new Map<string, ExecutionWrite>();
  const named = new Map<string, { project: string; customerKey: string }>();
  // Running state starts as the database's; a stored item becomes the "previous" of later ones.
  const seenCustomers = new Map(prev.customers);
  const seenAlerts = new Map(prev.alerts);
  const seenExecutions = new Map<string, PrevVersion>(prev.executions);

  const outcomes = items.map((item): WriteOutcome => {
    const tombstone =
      item.kind === 'customer'
        ? erased.get(rowKey(item.project, 'customer', item.key))
        : item.kind === 'alert'
          ? later(erased.get(rowKey(item.project, 'alert', item.key)), erased.get(rowKey(item.project, 'customer', item.listing.customerKey)))
          : erased.get(rowKey(item.project, 'customer', item.customerKey));
    // An erased record's older version never comes back, nor makes its customer known again.
    if (erasedOutcome(tombstone, item.versionKey) !== undefined) return 'stale';
    if (item.kind === 'customer') {
      const k = rowKey(item.project, item.key);
      const outcome = versionOutcome(seenCustomers.get(k), item);
      if (outcome === 'stored') {
        seenCustomers.set(k, item);
        // Deleting first moves the key to the end: rows are written in the order last stored.
        customers.delete(k);
        customers.set(k, item);
      }
      return outcome;
    }
    if (item.kind === 'alert') {
      const k = rowKey(item.project, item.key);
      const outcome = versionOutcome(seenAlerts.get(k), item);
      if (outcome === 'stored') {
        seenAlerts.set(k, item);
        alerts.delete(k);
        alerts.set(k, item);
      }
      return outcome;
    }
    named.set(rowKey(item.project, item.customerKey), { project: item.project, customerKey: item.customerKey });
    const k = rowKey(item.project, item.customerKey, item.executionId);
    const outcome = versionOutcome(seenExecutions.get(k), item);
    if (outcome === 'stored') {
      seenExecutions.set(k, item);
      executions.delete(k);
      // Only the database's version has scenario rows to remove; an earlier item of this batch
      // was never written, since only the last stored version of a row is.
      executions.set(k, { item, scenarioIds: [...new Set(item.scenarioIds)], previous: prev.executions.get(k) });
    }
    return outcome;
  });
  return {
    outcomes,
    customers: [...customers.values()],
    alerts: [...alerts.values()],
    executions: [...executions.values()],
    namedCustomers: [...named.values()],
  };
}
