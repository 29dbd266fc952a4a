/** The embedded store: one SQLite file through better-sqlite3, WAL mode, memory-mapped reads. */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { executionPageQuery } from '../execution-page-sql.js';
import type {
  ApiKeyRecord,
  CustomerUpsert,
  AlertUpsert,
  ExecutionUpsert,
  ExecutionFilter,
  ExecutionPosition,
  Store,
  StoredBody,
  StoredExecution,
  Upsert,
  WriteOutcome,
} from '../store.js';
import { versionOutcome } from '../version-outcome.js';
import { SQLITE_MIGRATIONS } from './migrations.js';

type Statement = Database.Statement<unknown[], unknown>;

interface ApiKeyRow {
  id: string;
  project: string;
  name: string | null;
  scopes: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** Opens (creating and migrating as needed) the SQLite store at `file`. */
export function openSqliteStore(file: string, options: { readonly?: boolean } = {}): SqliteStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file, { readonly: options.readonly ?? false });
  db.pragma('busy_timeout = 10000');
  if (!options.readonly) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    migrate(db);
  }
  db.pragma('mmap_size = 2147418112');
  db.pragma('cache_size = -65536');
  return new SqliteStore(db);
}

/** Applies the migrations the file has not seen yet, each in its own transaction. */
function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < SQLITE_MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(SQLITE_MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    }).immediate();
  }
  db.prepare('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)').run('secret', randomBytes(32));
}

/** The SQLite adapter of the Store interface. */
export class SqliteStore implements Store {
  readonly dialect = 'sqlite' as const;
  private readonly statements = new Map<string, Statement>();
  private readonly writeTx: Database.Transaction<(items: readonly Upsert[]) => WriteOutcome[]>;

  constructor(readonly db: Database.Database) {
    this.writeTx = db.transaction((items: readonly Upsert[]) => items.map((item) => this.writeOne(item)));
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (s === undefined) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  async getCompany(project: string, key: string): Promise<StoredBody | undefined> {
    return this.stmt(
      'SELECT etag, body, wire, gz FROM customers WHERE project = ? AND customer_key = ? AND is_company = 1',
    ).get(project, key) as StoredBody | undefined;
  }

  async getAlert(project: string, key: string): Promise<StoredBody | undefined> {
    return this.stmt('SELECT etag, body, wire, gz FROM alerts WHERE project = ? AND alert_key = ?').get(
      project,
      key,
    ) as StoredBody | undefined;
  }

  async customerKnown(project: string, customerKey: string): Promise<boolean> {
    return (
      this.stmt('SELECT 1 FROM customers WHERE project = ? AND customer_key = ?').get(project, customerKey) !==
      undefined
    );
  }

  async listExecutions(
    project: string,
    customerKey: string,
    filter: ExecutionFilter,
    after: ExecutionPosition | undefined,
    limit: number,
  ): Promise<StoredExecution[]> {
    const q = executionPageQuery(project, customerKey, filter, after, limit, () => '?');
    const rows = this.stmt(q.sql).all(...q.params) as {
      execution_id: string;
      sort_key: string;
      etag: string;
      body: Buffer;
      wire: string | null;
      gz: Buffer | null;
    }[];
    return rows.map((r) => ({
      executionId: r.execution_id,
      sortKey: r.sort_key,
      etag: r.etag,
      body: r.body,
      wire: r.wire,
      gz: r.gz,
    }));
  }

  async writeBatch(items: readonly Upsert[]): Promise<WriteOutcome[]> {
    return this.writeTx.immediate(items);
  }

  private writeOne(item: Upsert): WriteOutcome {
    switch (item.kind) {
      case 'customer':
        return this.writeCustomer(item);
      case 'alert':
        return this.writeAlert(item);
      case 'execution':
        return this.writeExecution(item);
    }
  }

  private writeCustomer(c: CustomerUpsert): WriteOutcome {
    const prev = this.stmt(
      'SELECT etag, version_key AS versionKey FROM customers WHERE project = ? AND customer_key = ? AND has_record = 1',
    ).get(c.project, c.key) as { etag: string; versionKey: string | null } | undefined;
    const outcome = versionOutcome(prev, c);
    if (outcome !== 'stored') return outcome;
    this.stmt(
      `INSERT INTO customers (project, customer_key, has_record, is_company, version_key, etag, body, wire, gz)
       VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project, customer_key) DO UPDATE SET has_record = 1, is_company = excluded.is_company,
         version_key = excluded.version_key, etag = excluded.etag, body = excluded.body,
         wire = excluded.wire, gz = excluded.gz`,
    ).run(c.project, c.key, c.isCompany ? 1 : 0, c.versionKey, c.etag, c.body, c.wire, c.gz);
    return 'stored';
  }

  private writeAlert(a: AlertUpsert): WriteOutcome {
    const prev = this.stmt(
      'SELECT etag, version_key AS versionKey FROM alerts WHERE project = ? AND alert_key = ?',
    ).get(a.project, a.key) as { etag: string; versionKey: string | null } | undefined;
    const outcome = versionOutcome(prev, a);
    if (outcome !== 'stored') return outcome;
    this.stmt(
      `INSERT INTO alerts (project, alert_key, version_key, etag, body, wire, gz) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project, alert_key) DO UPDATE SET version_key = excluded.version_key, etag = excluded.etag,
         body = excluded.body, wire = excluded.wire, gz = excluded.gz`,
    ).run(a.project, a.key, a.versionKey, a.etag, a.body, a.wire, a.gz);
    return 'stored';
  }

  private writeExecution(e: ExecutionUpsert): WriteOutcome {
    this.stmt('INSERT OR IGNORE INTO customers (project, customer_key) VALUES (?, ?)').run(e.project, e.customerKey);
    const prev = this.stmt(
      `SELECT etag, sort_key AS versionKey, scenario_ids AS scenarioIds FROM executions
       WHERE project = ? AND customer_key = ? AND execution_id = ?`,
    ).get(e.project, e.customerKey, e.executionId) as
      | { etag: string; versionKey: string; scenarioIds: string }
      | undefined;
    const outcome = versionOutcome(prev, e);
    if (outcome !== 'stored') return outcome;
    if (prev !== undefined) {
      const del = this.stmt(
        `DELETE FROM execution_scenarios
         WHERE project = ? AND customer_key = ? AND scenario_id = ? AND sort_key = ? AND execution_id = ?`,
      );
      for (const s of JSON.parse(prev.scenarioIds) as string[]) {
        del.run(e.project, e.customerKey, s, prev.versionKey, e.executionId);
      }
    }
    const scenarioIds = [...new Set(e.scenarioIds)];
    this.stmt(
      `INSERT INTO executions
         (project, customer_key, execution_id, sort_key, status, object_types, scenario_ids, etag, body, wire, gz)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (project, customer_key, execution_id) DO UPDATE SET sort_key = excluded.sort_key,
         status = excluded.status, object_types = excluded.object_types, scenario_ids = excluded.scenario_ids,
         etag = excluded.etag, body = excluded.body, wire = excluded.wire, gz = excluded.gz`,
    ).run(
      e.project,
      e.customerKey,
      e.executionId,
      e.versionKey,
      e.status,
      e.objectTypes,
      JSON.stringify(scenarioIds),
      e.etag,
      e.body,
      e.wire,
      e.gz,
    );
    const ins = this.stmt(
      `INSERT OR IGNORE INTO execution_scenarios (project, customer_key, scenario_id, sort_key, execution_id)
       VALUES (?, ?, ?, ?, ?)`,
    );
    for (const s of scenarioIds) ins.run(e.project, e.customerKey, s, e.versionKey, e.executionId);
    return 'stored';
  }

  async insertApiKey(k: ApiKeyRecord): Promise<void> {
    this.stmt(
      `INSERT INTO api_keys (id, project, name, scopes, hash, created_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(k.id, k.project, k.name, JSON.stringify(k.scopes), k.hash, k.createdAt, k.expiresAt, k.revokedAt);
  }

  async findApiKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.stmt('SELECT * FROM api_keys WHERE hash = ?').get(hash) as ApiKeyRow | undefined;
    return row === undefined ? undefined : apiKeyFromRow(row);
  }

  async listApiKeys(project?: string): Promise<ApiKeyRecord[]> {
    const rows = (
      project === undefined
        ? this.stmt('SELECT * FROM api_keys ORDER BY created_at, id').all()
        : this.stmt('SELECT * FROM api_keys WHERE project = ? ORDER BY created_at, id').all(project)
    ) as ApiKeyRow[];
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(id: string, at: string): Promise<boolean> {
    const r = this.stmt('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(at, id);
    return r.changes > 0;
  }

  async secret(): Promise<Buffer> {
    const row = this.stmt("SELECT value FROM meta WHERE key = 'secret'").get() as { value: Buffer } | undefined;
    if (row === undefined) throw new Error('store has no secret: it was never migrated');
    return row.value;
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

function apiKeyFromRow(r: ApiKeyRow): ApiKeyRecord {
  return {
    id: r.id,
    project: r.project,
    name: r.name,
    scopes: JSON.parse(r.scopes) as string[],
    hash: r.hash,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}
