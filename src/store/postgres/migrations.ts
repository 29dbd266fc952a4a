/**
 * Versioned PostgreSQL schema, mirroring the SQLite one table for table, applied by kysely's
 * Migrator (see schema-migrations.ts); replicas starting together serialize on its advisory lock.
 * Schemas migrated before it recorded versions in `schema_migrations`; they are adopted first.
 *
 * Key and sort columns are COLLATE "C" so comparisons and ORDER BY are bytewise, exactly as
 * in SQLite. Every primary key of the record tables starts with `project`, so they can be
 * distributed by project (Citus, YugabyteDB); meta, api_keys and the migration tables are small
 * and would be reference tables. No triggers, no exclusion constraints.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { CREATE_MIGRATION_TABLE, MIGRATION_TABLE } from '../schema-migrations.js';
import { guarded } from './pg-errors.js';
import { withoutDeadline } from './deadlines.js';

/** Each entry moves the schema one version up; never edit a released entry, append a new one. */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (
    key   text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL
  );

  -- One row per customer a project knows: from its customer record, or named by an execution.
  CREATE TABLE customers (
    project      text COLLATE "C" NOT NULL,
    customer_key text COLLATE "C" NOT NULL,
    has_record   boolean NOT NULL DEFAULT false,
    is_company   boolean NOT NULL DEFAULT false,
    version_key  text COLLATE "C",
    etag         text,
    body         bytea,
    wire         text,
    gz           bytea,
    PRIMARY KEY (project, customer_key)
  );

  CREATE TABLE alerts (
    project     text COLLATE "C" NOT NULL,
    alert_key   text COLLATE "C" NOT NULL,
    version_key text COLLATE "C",
    etag        text NOT NULL,
    body        bytea NOT NULL,
    wire        text,
    gz          bytea,
    PRIMARY KEY (project, alert_key)
  );

  CREATE TABLE executions (
    project      text COLLATE "C" NOT NULL,
    customer_key text COLLATE "C" NOT NULL,
    execution_id text COLLATE "C" NOT NULL,
    sort_key     text COLLATE "C" NOT NULL,
    status       text COLLATE "C",
    object_types integer NOT NULL,
    scenario_ids text NOT NULL,
    etag         text NOT NULL,
    body         bytea NOT NULL,
    wire         text,
    gz           bytea,
    PRIMARY KEY (project, customer_key, execution_id)
  );
  -- The page index: keyset range scans in either order, same columns as SQLite's.
  CREATE INDEX executions_page ON executions
    (project, customer_key, sort_key, execution_id, status, object_types);

  -- Executions by scenario they ran, in page order, so a scenarioId filter is a range scan too.
  CREATE TABLE execution_scenarios (
    project      text COLLATE "C" NOT NULL,
    customer_key text COLLATE "C" NOT NULL,
    scenario_id  text COLLATE "C" NOT NULL,
    sort_key     text COLLATE "C" NOT NULL,
    execution_id text COLLATE "C" NOT NULL,
    PRIMARY KEY (project, customer_key, scenario_id, sort_key, execution_id)
  );

  CREATE TABLE api_keys (
    id         text COLLATE "C" PRIMARY KEY,
    project    text COLLATE "C" NOT NULL,
    name       text,
    scopes     text NOT NULL,
    hash       text COLLATE "C" NOT NULL UNIQUE,
    created_at text COLLATE "C" NOT NULL,
    expires_at text,
    revoked_at text
  );
  `,
  `
  -- Append-only: who read (or tried to read) which record, when, with which answer.
  -- The key starts with project, like every record table, so it distributes the same way.
  CREATE TABLE access_log (
    project    text COLLATE "C" NOT NULL,
    id         bigint GENERATED ALWAYS AS IDENTITY,
    at         text COLLATE "C" NOT NULL,
    key_id     text,
    route      text NOT NULL,
    record_id  text COLLATE "C",
    status     integer NOT NULL,
    request_id text NOT NULL,
    client     text NOT NULL,
    PRIMARY KEY (project, id)
  );
  CREATE INDEX access_log_by_time ON access_log (project, at);
  CREATE INDEX access_log_by_record ON access_log (project, record_id, at);
  `,
  `
  -- The access log a flush at a time (access-log-batches.ts): one row per project per batch,
  -- the entries as a JSON array, rather than a row and two index entries per read. The
  -- per-record table names the batches holding a record's reads; it is caught up in bulk, and
  -- batches not in it yet are not indexed. Keys start with project, like every table.
  CREATE TABLE access_log_batches (
    project  text COLLATE "C" NOT NULL,
    id       bigint GENERATED ALWAYS AS IDENTITY,
    first_at text COLLATE "C" NOT NULL,
    last_at  text COLLATE "C" NOT NULL,
    entries  text NOT NULL,
    records  text NOT NULL,
    indexed  boolean NOT NULL DEFAULT false,
    PRIMARY KEY (project, id)
  );
  CREATE INDEX access_log_batches_by_time ON access_log_batches (project, first_at, id, last_at);
  CREATE INDEX access_log_batches_unindexed ON access_log_batches (project, first_at, id) WHERE NOT indexed;
  CREATE TABLE access_log_records (
    project   text COLLATE "C" NOT NULL,
    record_id text COLLATE "C" NOT NULL,
    batch_id  bigint NOT NULL,
    PRIMARY KEY (project, record_id, batch_id)
  );
  INSERT INTO access_log_batches (project, first_at, last_at, entries, records)
    SELECT project, min(at), max(at),
           json_agg(json_build_array(at, key_id, route, record_id, status, request_id, client) ORDER BY id)::text,
           coalesce(json_agg(DISTINCT record_id) FILTER (WHERE record_id IS NOT NULL), '[]'::json)::text
    FROM access_log GROUP BY project, id / 500 ORDER BY min(id);
  DROP TABLE access_log;
  `,
  `
  -- lz4 compresses a batch's entries in about half the time of the default pglz (1.1 against
  -- 2.1 ms per 500-entry insert). A server built without lz4, or one without column compression
  -- settings, keeps its default: the block swallows that refusal and nothing else changes.
  DO $$ BEGIN
    ALTER TABLE access_log_batches ALTER COLUMN entries SET COMPRESSION lz4;
  EXCEPTION WHEN others THEN NULL;
  END $$;
  `,
  `
  -- The per-record table keyed by a 64-bit hash of the record id, not the id, and in buckets of
  -- batch ids (BATCHES_PER_BUCKET in access-log-batches.ts): its entries are half the size, a
  -- catch-up writes into the newest bucket only, and its inserts need no conflict check (a batch
  -- is caught up once). Reads gather entries by the exact id, so two ids sharing a hash only cost
  -- a batch read more. access_log_buckets lists each project's buckets.
  CREATE TABLE access_log_record_hashes (
    project     text COLLATE "C" NOT NULL,
    bucket      bigint NOT NULL,
    record_hash bigint NOT NULL,
    batch_id    bigint NOT NULL,
    PRIMARY KEY (project, bucket, record_hash, batch_id)
  );
  INSERT INTO access_log_record_hashes (project, bucket, record_hash, batch_id)
    SELECT DISTINCT project, batch_id / 256, hashtextextended(record_id, 0), batch_id FROM access_log_records;
  CREATE TABLE access_log_buckets (
    project text COLLATE "C" NOT NULL,
    bucket  bigint NOT NULL,
    PRIMARY KEY (project, bucket)
  );
  INSERT INTO access_log_buckets (project, bucket) SELECT DISTINCT project, bucket FROM access_log_record_hashes;
  DROP TABLE access_log_records;
  ALTER TABLE access_log_record_hashes RENAME TO access_log_records;
  ALTER INDEX access_log_record_hashes_pkey RENAME TO access_log_records_pkey;
  `,
  `
  -- Record bytes: gz is already deflated, so the server no longer tries to compress it again, and
  -- body is compressed with lz4 instead of pglz. On an import of 94,703 records (6.9 KB each) this
  -- halved the server's CPU (21.5 to 11.9 s) for 2 % more disk.
  -- Values already stored keep their form until they are written again. Without lz4 in the server
  -- the block swallows the refusal and body keeps the default, as in the migration before.
  ALTER TABLE customers ALTER COLUMN gz SET STORAGE EXTERNAL;
  ALTER TABLE alerts ALTER COLUMN gz SET STORAGE EXTERNAL;
  ALTER TABLE executions ALTER COLUMN gz SET STORAGE EXTERNAL;
  DO $$ BEGIN
    ALTER TABLE customers ALTER COLUMN body SET COMPRESSION lz4;
    ALTER TABLE alerts ALTER COLUMN body SET COMPRESSION lz4;
    ALTER TABLE executions ALTER COLUMN body SET COMPRESSION lz4;
  EXCEPTION WHEN others THEN NULL;
  END $$;
  `,
  `
  -- The alert list (alert-page-sql.ts): each alert's summary bytes and the columns it filters and
  -- sorts by, written with the alert. Alerts stored before are filled by the backfill
  -- (alert-listing-backfill.ts) the meta flag asks for. Each index is one range scan in its sort
  -- order, the same as SQLite's; the small filter columns ride in it.
  ALTER TABLE alerts
    ADD COLUMN status       text COLLATE "C",
    ADD COLUMN severity     text COLLATE "C",
    ADD COLUMN category     text COLLATE "C",
    ADD COLUMN alert_type   text COLLATE "C",
    ADD COLUMN customer_key text COLLATE "C",
    ADD COLUMN assigned_to  text COLLATE "C",
    ADD COLUMN seen         boolean,
    ADD COLUMN created_key  text COLLATE "C",
    ADD COLUMN updated_key  text COLLATE "C",
    ADD COLUMN summary_etag text,
    ADD COLUMN summary_body bytea,
    ADD COLUMN summary_wire text,
    ADD COLUMN summary_gz   bytea;
  ALTER TABLE alerts ALTER COLUMN summary_gz SET STORAGE EXTERNAL;
  CREATE INDEX alerts_by_updated ON alerts
    (project, updated_key, alert_key, status, severity, category, alert_type, seen, created_key, assigned_to);
  CREATE INDEX alerts_by_created ON alerts
    (project, created_key, alert_key, status, severity, category, alert_type, seen, updated_key, assigned_to);
  CREATE INDEX alerts_by_customer ON alerts
    (project, customer_key, updated_key, alert_key, status, severity, category, alert_type, seen, created_key, assigned_to);
  CREATE INDEX alerts_by_customer_created ON alerts
    (project, customer_key, created_key, alert_key, status, severity, category, alert_type, seen, updated_key, assigned_to);
  INSERT INTO meta (key, value) SELECT 'alert_listing_backfill', decode('01', 'hex') WHERE EXISTS (SELECT 1 FROM alerts)
    ON CONFLICT (key) DO UPDATE SET value = excluded.value;
  `,
  `
  -- The company list: each company's summary bytes, the columns it filters on, its search text
  -- (normalized words, company-search.ts) and, generated from it, the tsvector the GIN index
  -- holds: names weigh A, identifiers B. 'simple' keeps every word as it is; no extension needed.
  CREATE TABLE companies (
    project          text COLLATE "C" NOT NULL,
    customer_key     text COLLATE "C" NOT NULL,
    sort_key         text COLLATE "C" NOT NULL,
    status           text COLLATE "C",
    onboarding_level text COLLATE "C",
    risk_score       text COLLATE "C",
    country          text COLLATE "C",
    search_names     text NOT NULL,
    search_ids       text NOT NULL,
    search           tsvector GENERATED ALWAYS AS
      (setweight(to_tsvector('simple'::regconfig, search_names), 'A') || setweight(to_tsvector('simple'::regconfig, search_ids), 'B')) STORED,
    etag             text NOT NULL,
    body             bytea NOT NULL,
    wire             text,
    gz               bytea,
    PRIMARY KEY (project, customer_key)
  );
  ALTER TABLE companies ALTER COLUMN gz SET STORAGE EXTERNAL;
  CREATE INDEX companies_page ON companies
    (project, sort_key, customer_key, status, onboarding_level, risk_score, country);
  CREATE INDEX companies_search ON companies USING gin (search);
  -- Companies stored before this version are listed by a backfill when a store opens.
  INSERT INTO meta (key, value) VALUES ('backfill:companies', '\\x01') ON CONFLICT (key) DO NOTHING;
  `,
  `
  -- The change feed: one entry per record (its newest change). Sequences are not visible in
  -- commit order, so an entry is positioned by its writing transaction's id, then seq, and read
  -- only below the snapshot's xmin, where every transaction has ended (docs/spec-decisions.md).
  -- An update moves the entry: a new xid and seq. etag NULL marks an erase. The meta row asks
  -- the first writable open to add an entry for every record stored before (changes-backfill.ts).
  CREATE SEQUENCE changes_seq;
  CREATE TABLE changes (
    project    text COLLATE "C" NOT NULL,
    record     text COLLATE "C" NOT NULL,
    xid        xid8 NOT NULL DEFAULT pg_current_xact_id(),
    seq        bigint NOT NULL DEFAULT nextval('changes_seq'),
    record_key text COLLATE "C" NOT NULL,
    etag       text,
    item       bytea NOT NULL,
    PRIMARY KEY (project, record)
  );
  CREATE INDEX changes_feed ON changes (project, xid, seq);
  INSERT INTO meta (key, value) VALUES ('changes_backfill', '\\x00') ON CONFLICT (key) DO NOTHING;
  `,  `
  -- Erasure (docs/data-protection.md). A tombstone per erased customer and alert: the instant key
  -- of the erasure and nothing of the record's data; an import of a version not newer is stale.
  -- An erased customer's tombstone also covers its executions and the alerts naming it.
  CREATE TABLE erasures (
    project    text COLLATE "C" NOT NULL,
    kind       text COLLATE "C" NOT NULL,
    record_key text COLLATE "C" NOT NULL,
    erased_key text COLLATE "C" NOT NULL,
    PRIMARY KEY (project, kind, record_key)
  );
  -- Document files of erased or pruned records still to delete from the file store: written with
  -- the erasure, removed once each file is gone, so an erase run again finishes what failed.
  CREATE TABLE file_deletions (
    project    text COLLATE "C" NOT NULL,
    object_key text COLLATE "C" NOT NULL,
    PRIMARY KEY (project, object_key)
  );
  `,
  `
  -- Reads mask the fields of a class a key has no scope for: keys minted before keep seeing every field.
  UPDATE api_keys SET scopes = (scopes::jsonb || '["pii:read", "documents:read", "screening:read"]'::jsonb)::text
  WHERE NOT (scopes::jsonb ?| ARRAY['pii:read', 'documents:read', 'screening:read']);
  `,
  `
  -- The per-record table holds one row per record and bucket with the bucket's batches naming it
  -- as a bitmap (bit n: batch bucket * 256 + n; 256 is BATCHES_PER_BUCKET), not one row per record
  -- and batch: a record read in many batches of a bucket (a list page served again, a hot record)
  -- is one row updated in place. Free room on each page lets the updates stay on their page.
  CREATE TABLE access_log_record_bits (
    project     text COLLATE "C" NOT NULL,
    bucket      bigint NOT NULL,
    record_hash bigint NOT NULL,
    batches     bit(256) NOT NULL,
    PRIMARY KEY (project, bucket, record_hash)
  ) WITH (fillfactor = 70);
  INSERT INTO access_log_record_bits (project, bucket, record_hash, batches)
    SELECT project, bucket, record_hash, bit_or(B'1'::bit(256) >> (batch_id % 256)::int)
    FROM access_log_records GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
  DROP TABLE access_log_records;
  ALTER TABLE access_log_record_bits RENAME TO access_log_records;
  ALTER INDEX access_log_record_bits_pkey RENAME TO access_log_records_pkey;
  `,
  `
  -- Search: every word behind its project's tag (8 hex digits of hashtextextended, which hash
  -- partitioning keeps stable across versions; company-page-sql.ts computes the same in the
  -- query), so a search reads and ranks its own project's matches only. The column and its index
  -- are built again from the companies' words.
  ALTER TABLE companies DROP COLUMN search;
  ALTER TABLE companies ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, regexp_replace(search_names, '(\\S+)', lpad(to_hex(hashtextextended(project, 0) & 4294967295), 8, '0') || '\\1', 'g')), 'A') ||
    setweight(to_tsvector('simple'::regconfig, regexp_replace(search_ids, '(\\S+)', lpad(to_hex(hashtextextended(project, 0) & 4294967295), 8, '0') || '\\1', 'g')), 'B')) STORED;
  CREATE INDEX companies_search ON companies USING gin (search);
  `,
  `
  -- Search words spell letters with a stroke and ligatures as their base letters (company-search.ts):
  -- the companies stored before are listed again, with their words, when a store opens.
  INSERT INTO meta (key, value) VALUES ('backfill:companies', '\\x01') ON CONFLICT (key) DO NOTHING;
  `,
  `
  -- Search: the project's tag starts with a letter. A tag of digits, "e" and digits ("19593e58")
  -- reads as a number to the text parser, which then split it from the word: such a project's
  -- words were indexed bare, found through every project's entries and ranked by the tag's matches.
  ALTER TABLE companies DROP COLUMN search;
  ALTER TABLE companies ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple'::regconfig, regexp_replace(search_names, '(\\S+)', 't' || lpad(to_hex(hashtextextended(project, 0) & 4294967295), 8, '0') || '\\1', 'g')), 'A') ||
    setweight(to_tsvector('simple'::regconfig, regexp_replace(search_ids, '(\\S+)', 't' || lpad(to_hex(hashtextextended(project, 0) & 4294967295), 8, '0') || '\\1', 'g')), 'B')) STORED;
  CREATE INDEX companies_search ON companies USING gin (search);
  `,
];

/** The advisory lock key of the runner before kysely's: adoption serializes with it. */
const ADOPTION_LOCK_KEY = '7163540891102230017';

/**
 * How far the schema has been migrated: applied migrations, the version the runner before
 * kysely's recorded (`schema_migrations`), or 0 when it has never been migrated.
 */
async function appliedVersion(client: pg.ClientBase): Promise<number> {
  const t = await migrationTables(client);
  if (t.k) return (await client.query<{ v: number }>(`SELECT count(*)::int AS v FROM ${MIGRATION_TABLE}`)).rows[0]!.v;
  if (t.s) return (await client.query<{ v: number | null }>('SELECT max(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0;
  return 0;
}

/**
 * Which of the migration tables exist in the current schema: kysely's (`k`), the earlier runner's
 * (`s`). Read from pg_tables under the statement's snapshot: a lookup through the catalog cache
 * may not yet see a table another replica committed while this one waited for a lock.
 */
async function migrationTables(client: pg.ClientBase): Promise<{ k: boolean; s: boolean }> {
  const r = await client.query<{ k: boolean; s: boolean }>(
    `SELECT bool_or(tablename = '${MIGRATION_TABLE}') IS TRUE AS k, bool_or(tablename = 'schema_migrations') IS TRUE AS s
     FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename IN ('${MIGRATION_TABLE}', 'schema_migrations')`,
  );
  return r.rows[0]!;
}

/**
 * Records the versions a schema migrated by the runner before kysely's reached as applied
 * migrations, under that runner's lock, so replicas of either build starting together agree.
 */
async function adoptSchemaMigrations(client: pg.ClientBase): Promise<void> {
  const before = await migrationTables(client);
  if (before.k || !before.s) return;
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${ADOPTION_LOCK_KEY})`);
    const now = await migrationTables(client);
    if (!now.k) {
      await client.query(CREATE_MIGRATION_TABLE);
      await client.query(
        `INSERT INTO ${MIGRATION_TABLE} (name, timestamp)
         SELECT lpad(version::text, 4, '0'), to_char(applied_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM schema_migrations`,
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

/**
 * Brings the schema to the latest version and makes sure the shared secret exists. Safe when
 * several replicas start at once: kysely's Migrator holds an advisory lock while it reads what
 * was applied and applies the rest in one transaction, so a replica that waited applies nothing.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let failure: Error | true | undefined;
  try {
    // Fast path: an up-to-date schema (or a newer one) is the common case at start.
    if ((await migrationTables(client)).k && (await appliedVersion(client)) >= POSTGRES_MIGRATIONS.length) return;
    // Waiting for another replica's migration, or building an index, may outlast the statement
    // timeout meant for reads; the connection is closed afterwards rather than reused with it.
    failure = true;
    await client.query('SET statement_timeout = 0');
    // No server time-out, so no client deadline either: keepalive still finds a connection dropped while it waits.
    withoutDeadline(client);
    await adoptSchemaMigrations(client);
    const schema = (await client.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
    const { runPostgresMigrations } = await import('./kysely-migrations.js');
    await runPostgresMigrations(client, schema, POSTGRES_MIGRATIONS);
    // Replicas race here too; the first secret wins and every replica reads that one.
    await client.query("INSERT INTO meta (key, value) VALUES ('secret', $1) ON CONFLICT (key) DO NOTHING", [randomBytes(32)]);
  } catch (err) {
    // Do not hand a connection in an unknown state back to the pool.
    failure = err as Error;
    throw err;
  } finally {
    client.release(failure);
  }
}

/** The version the schema at `url` is at, read on a connection of its own without migrating. */
export async function peekPostgresVersion(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  return guarded('peekSchemaVersion', async () => {
    try {
      await client.connect();
      return await appliedVersion(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}
