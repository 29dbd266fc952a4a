/**
 * Versioned SQLite schema, applied by kysely's Migrator (see schema-migrations.ts). Files made
 * before it recorded their version in `PRAGMA user_version`; they are adopted on first open.
 */
import type Database from 'better-sqlite3';
import { searchTag, taggedText } from '../company-search.js';
import { CREATE_MIGRATION_TABLE, MIGRATION_TABLE, migrationName } from '../schema-migrations.js';

/** Each entry moves the schema one version up; never edit a released entry, append a new one. */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value BLOB NOT NULL
  );

  -- One row per customer a project knows: from its customer record, or named by an execution.
  CREATE TABLE customers (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    has_record   INTEGER NOT NULL DEFAULT 0,
    is_company   INTEGER NOT NULL DEFAULT 0,
    version_key  TEXT,
    etag         TEXT,
    body         BLOB,
    wire         TEXT,
    gz           BLOB,
    PRIMARY KEY (project, customer_key)
  );

  CREATE TABLE alerts (
    project     TEXT NOT NULL,
    alert_key   TEXT NOT NULL,
    version_key TEXT,
    etag        TEXT NOT NULL,
    body        BLOB NOT NULL,
    wire        TEXT,
    gz          BLOB,
    PRIMARY KEY (project, alert_key)
  );

  CREATE TABLE executions (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    execution_id TEXT NOT NULL,
    sort_key     TEXT NOT NULL,
    status       TEXT,
    object_types INTEGER NOT NULL,
    scenario_ids TEXT NOT NULL,
    etag         TEXT NOT NULL,
    body         BLOB NOT NULL,
    wire         TEXT,
    gz           BLOB,
    PRIMARY KEY (project, customer_key, execution_id)
  );
  -- The page index: keyset range scans in either order; status and rule types are checked
  -- from the index before the row (and its body) is read.
  CREATE INDEX executions_page ON executions
    (project, customer_key, sort_key, execution_id, status, object_types);

  -- Executions by scenario they ran, in page order, so a scenarioId filter is a range scan too.
  CREATE TABLE execution_scenarios (
    project      TEXT NOT NULL,
    customer_key TEXT NOT NULL,
    scenario_id  TEXT NOT NULL,
    sort_key     TEXT NOT NULL,
    execution_id TEXT NOT NULL,
    PRIMARY KEY (project, customer_key, scenario_id, sort_key, execution_id)
  ) WITHOUT ROWID;

  CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    project    TEXT NOT NULL,
    name       TEXT,
    scopes     TEXT NOT NULL,
    hash       TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT
  );
  `,
  `
  -- Append-only: who read (or tried to read) which record, when, with which answer.
  CREATE TABLE access_log (
    id         INTEGER PRIMARY KEY,
    at         TEXT NOT NULL,
    key_id     TEXT,
    project    TEXT NOT NULL,
    route      TEXT NOT NULL,
    record_id  TEXT,
    status     INTEGER NOT NULL,
    request_id TEXT NOT NULL,
    client     TEXT NOT NULL
  );
  CREATE INDEX access_log_by_time ON access_log (project, at);
  CREATE INDEX access_log_by_record ON access_log (project, record_id, at);
  `,
  `
  -- The access log a flush at a time (access-log-batches.ts): one row per project per batch,
  -- the entries as a JSON array, rather than a row and two index entries per read. The
  -- per-record table names the batches holding a record's reads; it is caught up in bulk, and
  -- batches not in it yet have indexed = 0.
  CREATE TABLE access_log_batches (
    id       INTEGER PRIMARY KEY,
    project  TEXT NOT NULL,
    first_at TEXT NOT NULL,
    last_at  TEXT NOT NULL,
    entries  TEXT NOT NULL,
    records  TEXT NOT NULL,
    indexed  INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX access_log_batches_by_time ON access_log_batches (project, first_at, id, last_at);
  CREATE INDEX access_log_batches_unindexed ON access_log_batches (project, first_at, id) WHERE indexed = 0;
  CREATE TABLE access_log_records (
    project   TEXT NOT NULL,
    record_id TEXT NOT NULL,
    batch_id  INTEGER NOT NULL,
    PRIMARY KEY (project, record_id, batch_id)
  ) WITHOUT ROWID;
  INSERT INTO access_log_batches (project, first_at, last_at, entries, records)
    SELECT project, min(at), max(at), json_group_array(json_array(at, key_id, route, record_id, status, request_id, client)),
           json_group_array(DISTINCT record_id) FILTER (WHERE record_id IS NOT NULL)
    FROM (SELECT * FROM access_log ORDER BY id) GROUP BY project, id / 500 ORDER BY min(id);
  DROP TABLE access_log;
  `,
  `
  -- The per-record table in buckets of batch ids (BATCHES_PER_BUCKET in access-log-batches.ts),
  -- so a catch-up writes into the newest bucket only; access_log_buckets lists each project's.
  CREATE TABLE access_log_record_buckets (
    project   TEXT NOT NULL,
    bucket    INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    batch_id  INTEGER NOT NULL,
    PRIMARY KEY (project, bucket, record_id, batch_id)
  ) WITHOUT ROWID;
  INSERT INTO access_log_record_buckets (project, bucket, record_id, batch_id)
    SELECT project, batch_id / 256, record_id, batch_id FROM access_log_records ORDER BY 1, 2, 3, 4;
  CREATE TABLE access_log_buckets (
    project TEXT NOT NULL,
    bucket  INTEGER NOT NULL,
    PRIMARY KEY (project, bucket)
  ) WITHOUT ROWID;
  INSERT INTO access_log_buckets (project, bucket) SELECT DISTINCT project, bucket FROM access_log_record_buckets;
  DROP TABLE access_log_records;
  ALTER TABLE access_log_record_buckets RENAME TO access_log_records;
  `,
  `
  -- The alert list (alert-page-sql.ts): each alert's summary bytes and the columns it filters and
  -- sorts by, written with the alert. Alerts stored before are filled by the backfill
  -- (alert-listing-backfill.ts) the meta flag asks for. Each index is one range scan in its sort
  -- order; the small filter columns ride in it so rows filtered out are never read.
  ALTER TABLE alerts ADD COLUMN status TEXT;
  ALTER TABLE alerts ADD COLUMN severity TEXT;
  ALTER TABLE alerts ADD COLUMN category TEXT;
  ALTER TABLE alerts ADD COLUMN alert_type TEXT;
  ALTER TABLE alerts ADD COLUMN customer_key TEXT;
  ALTER TABLE alerts ADD COLUMN assigned_to TEXT;
  ALTER TABLE alerts ADD COLUMN seen INTEGER;
  ALTER TABLE alerts ADD COLUMN created_key TEXT;
  ALTER TABLE alerts ADD COLUMN updated_key TEXT;
  ALTER TABLE alerts ADD COLUMN summary_etag TEXT;
  ALTER TABLE alerts ADD COLUMN summary_body BLOB;
  ALTER TABLE alerts ADD COLUMN summary_wire TEXT;
  ALTER TABLE alerts ADD COLUMN summary_gz BLOB;
  CREATE INDEX alerts_by_updated ON alerts
    (project, updated_key, alert_key, status, severity, category, alert_type, seen, created_key, assigned_to);
  CREATE INDEX alerts_by_created ON alerts
    (project, created_key, alert_key, status, severity, category, alert_type, seen, updated_key, assigned_to);
  CREATE INDEX alerts_by_customer ON alerts
    (project, customer_key, updated_key, alert_key, status, severity, category, alert_type, seen, created_key, assigned_to);
  CREATE INDEX alerts_by_customer_created ON alerts
    (project, customer_key, created_key, alert_key, status, severity, category, alert_type, seen, updated_key, assigned_to);
  INSERT OR REPLACE INTO meta (key, value) SELECT 'alert_listing_backfill', x'01' WHERE EXISTS (SELECT 1 FROM alerts);
  `,
  `
  -- The company list: each company's summary bytes, the columns it filters on, its search text.
  -- The page index carries the filter columns, so they are checked before the row is read.
  CREATE TABLE companies (
    id               INTEGER PRIMARY KEY,
    project          TEXT NOT NULL,
    customer_key     TEXT NOT NULL,
    sort_key         TEXT NOT NULL,
    status           TEXT,
    onboarding_level TEXT,
    risk_score       TEXT,
    country          TEXT,
    search_names     TEXT NOT NULL,
    search_ids       TEXT NOT NULL,
    etag             TEXT NOT NULL,
    body             BLOB NOT NULL,
    wire             TEXT,
    gz               BLOB,
    UNIQUE (project, customer_key)
  );
  CREATE INDEX companies_page ON companies
    (project, sort_key, customer_key, status, onboarding_level, risk_score, country);
  -- Search: the normalized words (company-search.ts), rowid = companies.id.
  CREATE VIRTUAL TABLE company_search USING fts5(names, ids, tokenize = 'unicode61 remove_diacritics 2');
  -- Companies stored before this version are listed by a backfill when a writable store opens.
  INSERT INTO meta (key, value) VALUES ('backfill:companies', x'01');
  `,
  `
  -- The change feed: one entry per record (its newest change), positioned by seq. AUTOINCREMENT,
  -- so a seq is never given twice, not even after the highest entry moved on: a consumer already
  -- past it would miss the entry reusing it. etag NULL marks an erase. The meta row asks the
  -- first writable open to add an entry for every record stored before (changes-backfill.ts).
  CREATE TABLE changes (
    seq        INTEGER PRIMARY KEY AUTOINCREMENT,
    project    TEXT NOT NULL,
    record     TEXT NOT NULL,
    record_key TEXT NOT NULL,
    etag       TEXT,
    item       BLOB NOT NULL
  );
  CREATE UNIQUE INDEX changes_by_record ON changes (project, record);
  CREATE INDEX changes_feed ON changes (project, seq);
  INSERT INTO meta (key, value) VALUES ('changes_backfill', X'00');
  `,
  `
  -- Erasure (docs/data-protection.md). A tombstone per erased customer and alert: the instant key
  -- of the erasure and nothing of the record's data; an import of a version not newer is stale.
  -- An erased customer's tombstone also covers its executions and the alerts naming it.
  CREATE TABLE erasures (
    project    TEXT NOT NULL,
    kind       TEXT NOT NULL,
    record_key TEXT NOT NULL,
    erased_key TEXT NOT NULL,
    PRIMARY KEY (project, kind, record_key)
  ) WITHOUT ROWID;
  -- Document files of erased or pruned records still to delete from the file store: written with
  -- the erasure, removed once each file is gone, so an erase run again finishes what failed.
  CREATE TABLE file_deletions (
    project    TEXT NOT NULL,
    object_key TEXT NOT NULL,
    PRIMARY KEY (project, object_key)
  ) WITHOUT ROWID;
  -- FTS5 removes a deleted row's words from its index at once, rather than at a later merge.
  INSERT INTO company_search (company_search, rank) VALUES ('secure-delete', 1);
  `,
  `
  -- Reads mask the fields of a class a key has no scope for: keys minted before keep seeing every field.
  UPDATE api_keys SET scopes = json_insert(scopes, '$[#]', 'pii:read', '$[#]', 'documents:read', '$[#]', 'screening:read')
  WHERE NOT EXISTS (SELECT 1 FROM json_each(api_keys.scopes) WHERE value IN ('pii:read', 'documents:read', 'screening:read'));
  `,
  `
  -- Search: every word behind its project's tag (company-search.ts searchTag), so a search reads
  -- and ranks its own project's matches only. The index is built again from the companies' words.
  DROP TABLE company_search;
  CREATE VIRTUAL TABLE company_search USING fts5(names, ids, tokenize = 'unicode61 remove_diacritics 2');
  INSERT INTO company_search (company_search, rank) VALUES ('secure-delete', 1);
  INSERT INTO company_search (rowid, names, ids)
    SELECT id, search_tagged(project, search_names), search_tagged(project, search_ids) FROM companies ORDER BY id;
  `,
  `
  -- The per-record table holds one row per record, bucket and word of 64 of the bucket's batches,
  -- the word's batches naming the record as bits (bit n: batch bucket * 256 + word * 64 + n), not
  -- one row per record and batch: a record read in many batches (a page served again, a hot
  -- record) is one row updated in place, as on PostgreSQL.
  CREATE TABLE access_log_record_bits (
    project   TEXT NOT NULL,
    bucket    INTEGER NOT NULL,
    record_id TEXT NOT NULL,
    word      INTEGER NOT NULL,
    bits      INTEGER NOT NULL,
    PRIMARY KEY (project, bucket, record_id, word)
  ) WITHOUT ROWID;
  INSERT INTO access_log_record_bits (project, bucket, record_id, word, bits)
    SELECT project, batch_id / 256, record_id, batch_id % 256 / 64, sum(DISTINCT 1 << (batch_id % 64))
    FROM access_log_records GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4;
  DROP TABLE access_log_records;
  ALTER TABLE access_log_record_bits RENAME TO access_log_records;
  `,
  `
  -- Search words spell letters with a stroke and ligatures as their base letters (company-search.ts):
  -- the companies stored before are listed again, with their words, when a writable store opens.
  INSERT OR IGNORE INTO meta (key, value) VALUES ('backfill:companies', x'01');
  `,
];

/** How far the file has been migrated: applied migrations, or the version an older build recorded. */
export function sqliteSchemaVersion(db: Database.Database): number {
  if (!hasTable(db, MIGRATION_TABLE)) return db.pragma('user_version', { simple: true }) as number;
  return (db.prepare(`SELECT count(*) AS n FROM ${MIGRATION_TABLE}`).get() as { n: number }).n;
}

/** The functions migrations call on `db`: what they compute, computed as the service does (the search index's tagged words). */
export function addMigrationFunctions(db: Database.Database): void {
  db.function('search_tagged', { deterministic: true }, (project, text) => taggedText(searchTag(String(project)), String(text)));
}

/** Applies the migrations the file has not seen yet, all in one transaction. */
export async function migrateSqlite(db: Database.Database): Promise<void> {
  adoptUserVersion(db);
  // A file at or past this build's version has nothing to apply (a newer one is left as it is).
  if (sqliteSchemaVersion(db) >= SQLITE_MIGRATIONS.length) return;
  const { runSqliteMigrations } = await import('./kysely-migrations.js');
  addMigrationFunctions(db);
  await runSqliteMigrations(db, SQLITE_MIGRATIONS);
}

/** Records the versions a file migrated by `user_version` reached as applied migrations. */
function adoptUserVersion(db: Database.Database): void {
  const needed = (): boolean => (db.pragma('user_version', { simple: true }) as number) > 0 && !hasTable(db, MIGRATION_TABLE);
  // Checked again under the write lock: another process may have adopted the file meanwhile.
  if (!needed()) return;
  db.transaction(() => {
    if (!needed()) return;
    const version = db.pragma('user_version', { simple: true }) as number;
    db.exec(CREATE_MIGRATION_TABLE);
    const insert = db.prepare(`INSERT INTO ${MIGRATION_TABLE} (name, timestamp) VALUES (?, ?)`);
    const now = new Date().toISOString();
    for (let v = 1; v <= version; v++) insert.run(migrationName(v), now);
  }).immediate();
}

function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
