/** Versioned SQLite schema; `PRAGMA user_version` records how far a file has been migrated. */

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
];
