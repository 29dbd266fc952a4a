/** Reading the change feed over HTTP in tests: one page with its Link, following Links to the end, importing more lines. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change } from '../../src/contract/change.js';
import { importFiles } from '../../src/ingest/importer.js';
import type { ImportSummary } from '../../src/ingest/import-summary.js';
import pg from 'pg';
import { isPostgresUrl } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';

/** One answer of GET /changes: status, items (or the error body), the Link's URL. */
export interface FeedPage {
  status: number;
  items: Change[];
  body: unknown;
  next: string | null;
  etag: string | null;
}

/** GETs a feed URL (a path with its query, e.g. `/v1/changes?limit=2`) with `key`. */
export async function feedPage(base: string, path: string, key: string, signal?: AbortSignal): Promise<FeedPage> {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` }, signal });
  const body = (await res.json()) as unknown;
  const link = res.headers.get('link');
  const next = link === null ? null : (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null);
  return { status: res.status, items: res.status === 200 ? (body as Change[]) : [], body, next, etag: res.headers.get('etag') };
}

/** Follows Links from `path` until an empty page; answers every item and the URL to poll next. */
export async function catchUp(base: string, path: string, key: string): Promise<{ items: Change[]; next: string }> {
  const items: Change[] = [];
  let url = path;
  for (let guard = 0; guard < 10_000; guard++) {
    const page = await feedPage(base, url, key);
    if (page.status !== 200 || page.next === null) throw new Error(`feed answered ${page.status}: ${JSON.stringify(page.body)}`);
    if (page.items.length === 0) return { items, next: page.next };
    items.push(...page.items);
    url = page.next;
  }
  throw new Error('the feed never ran dry');
}

/** Imports `lines` into `store` from a file of their own. */
export async function importLines(store: Store, lines: readonly string[]): Promise<ImportSummary> {
  const dir = mkdtempSync(join(tmpdir(), 'crs-feed-'));
  const file = join(dir, 'more.ndjson');
  writeFileSync(file, lines.join('\n') + '\n');
  return importFiles(store, [file]);
}

/** A customer line of `type` (Company or Individual) without documents; `status` tells versions apart. */
export function plainCustomerLine(project: string, id: string, type: 'Company' | 'Individual', status = 'Active', updatedAt?: string): string {
  return JSON.stringify({ kind: 'customer', record: { id, cmsProjectId: project, type, status, ...(updatedAt === undefined ? {} : { updatedAt }) } });
}

/**
 * Resolves once every transaction running anywhere in the database at the call has ended, so what
 * was committed before it is servable: on PostgreSQL the feed serves entries below the snapshot's
 * xmin, which other sessions (other suites running at once) hold back for a moment. SQLite: at once.
 */
export async function feedSettled(dbUrl: string): Promise<void> {
  if (!isPostgresUrl(dbUrl)) return;
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const horizon = async (fn: 'xmin' | 'xmax'): Promise<bigint> =>
      BigInt((await client.query<{ x: string }>(`SELECT pg_snapshot_${fn}(pg_current_snapshot())::text AS x`)).rows[0]!.x);
    const target = await horizon('xmax');
    for (let i = 0; i < 600 && (await horizon('xmin')) < target; i++) await new Promise((r) => setTimeout(r, 25));
  } finally {
    await client.end();
  }
}
