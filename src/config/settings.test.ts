/** The settings table, its parsers and its documentation page. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BULK_STATEMENT_TIMEOUT_MS, ConfigError, describeConfig, loadConfig, maskSecret, storeOptionsOf } from './load-config.js';
import { SETTINGS } from './settings.js';

describe('configuration', () => {
  it('documents every setting in docs/configuration.md', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    for (const s of Object.values(SETTINGS)) {
      expect(doc, s.env).toContain(`\`${s.env}\``);
      expect(doc, s.flag).toContain(`\`${s.flag}\``);
    }
  });

  it('uses defaults when nothing is set', () => {
    const c = loadConfig({}, {});
    expect(c).toMatchObject({ port: 8080, basePath: '/v1', databaseUrl: './data/compliance.db', signedUrlTtl: 900, cacheControl: 'no-store' });
  });

  it('gives bulk writers at least a minute of statement timeout, and keeps a longer configured one', () => {
    const short = loadConfig({}, { PG_STATEMENT_TIMEOUT_MS: '2000' });
    expect(storeOptionsOf(short).statementTimeoutMs).toBe(2000);
    expect(storeOptionsOf(short, 'bulk writes').statementTimeoutMs).toBe(BULK_STATEMENT_TIMEOUT_MS);
    const long = loadConfig({}, { PG_STATEMENT_TIMEOUT_MS: '600000' });
    expect(storeOptionsOf(long, 'bulk writes').statementTimeoutMs).toBe(600_000);
  });

  it('lets flags win over the environment', () => {
    expect(loadConfig({ port: '9000' }, { PORT: '7000' }).port).toBe(9000);
    expect(loadConfig({}, { PORT: '7000' }).port).toBe(7000);
  });

  it('names every bad value in one error', () => {
    try {
      loadConfig({ port: 'eighty' }, { BASE_PATH: 'v1/', SIGNED_URL_TTL: '-1', FILE_STORE: 'ftp' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toMatch(/--port="eighty" must be a whole number/);
      expect(problems).toMatch(/BASE_PATH="v1\/" must be a path/);
      expect(problems).toMatch(/SIGNED_URL_TTL/);
      expect(problems).toMatch(/FILE_STORE="ftp" must be one of: local, s3/);
    }
  });

  it('refuses a malformed database URL at start instead of opening a SQLite file named after it', () => {
    for (const raw of ['postgresql:/db', 'postgres://app:hunter2@[db', 'mysql://db/x', 'redis://db', '']) {
      expect(() => loadConfig({}, { DATABASE_URL: raw }), raw).toThrow(/DATABASE_URL="\*\*\*" (must be|is not)/);
    }
    expect(() => loadConfig({ databaseUrl: 'postgres://app:hunter2@[db' }, {})).toThrow(/--db="\*\*\*" is not a valid postgres:\/\/ URL/);
    expect(() => loadConfig({}, { DATABASE_READ_URL: 'postgres://app:hunter2@[db' })).toThrow(/DATABASE_READ_URL="\*\*\*" is not a valid/);
    for (const ok of ['./data/compliance.db', '/data/compliance.db', 'sqlite:/tmp/x.db', 'file:x.db', 'C:/data/x.db', 'postgres://app@db:5432/prod?sslmode=require', 'postgresql://db/x']) {
      expect(loadConfig({}, { DATABASE_URL: ok }).databaseUrl).toBe(ok);
    }
  });

  it('refuses a Redis URL that is not redis:// or rediss://, naming REDIS_URL', () => {
    for (const raw of ['notaurl', 'http://redis:6379', 'redis://:pw@[bad']) {
      expect(() => loadConfig({}, { REDIS_URL: raw }), raw).toThrow(/REDIS_URL="\*\*\*" must be a redis:\/\/ or rediss:\/\/ URL/);
    }
    expect(loadConfig({}, { REDIS_URL: 'rediss://:pw@redis:6380/0' }).redisUrl).toBe('rediss://:pw@redis:6380/0');
    expect(loadConfig({}, { REDIS_URL: '' }).redisUrl).toBeUndefined();
  });

  it('masks secrets when printing the configuration', () => {
    const c = loadConfig({}, { DATABASE_URL: 'postgres://app:hunter2@db:5432/prod', S3_SECRET_ACCESS_KEY: 'abc', METRICS_TOKEN: 'tok' });
    const printed = JSON.stringify(describeConfig(c));
    expect(printed).not.toContain('hunter2');
    expect(printed).not.toContain('"abc"');
    expect(printed).not.toContain('"tok"');
    expect(printed).toContain('postgres://app:***@db:5432/prod');
    expect(maskSecret('./data/compliance.db')).toBe('./data/compliance.db');
  });

  it('masks a password given as a query parameter of a database or Redis URL', () => {
    const c = loadConfig({}, {
      DATABASE_URL: 'postgres://app@db:5432/prod?sslmode=require&password=hunter2&sslpassword=s3cr3t-key',
      REDIS_URL: 'redis://cache:6379/0?pass=redispw&db=1',
    });
    const printed = JSON.stringify(describeConfig(c));
    for (const secret of ['hunter2', 's3cr3t-key', 'redispw']) expect(printed).not.toContain(secret);
    expect(printed).toContain('sslmode=require&password=***&sslpassword=***');
    expect(printed).toContain('redis://cache:6379/0?pass=***&db=1');
    expect(maskSecret('postgres://db/prod?PassWord=x&pwd=y&application_name=app')).toBe('postgres://db/prod?PassWord=***&pwd=***&application_name=app');
  });

  it('takes a read replica only as a postgres:// URL, and masks its password when printed', () => {
    const c = loadConfig({}, { DATABASE_URL: 'postgres://app@db:5432/prod', DATABASE_READ_URL: 'postgres://app:hunter2@replica:5432/prod' });
    expect(c.databaseReadUrl).toBe('postgres://app:hunter2@replica:5432/prod');
    const printed = JSON.stringify(describeConfig(c));
    expect(printed).not.toContain('hunter2');
    expect(printed).toContain('postgres://app:***@replica:5432/prod');
    expect(loadConfig({}, {}).databaseReadUrl).toBeUndefined();
    expect(() => loadConfig({}, { DATABASE_READ_URL: 'replica.db' })).toThrow(/DATABASE_READ_URL="\*\*\*" must be a postgres:\/\/ URL/);
  });

  it('reads --max-rejects as a bounded whole number', () => {
    expect(loadConfig({}, {}).maxRejects).toBe(10_000);
    expect(loadConfig({ maxRejects: '0' }, {}).maxRejects).toBe(0);
    expect(() => loadConfig({}, { MAX_REJECTS: 'all' })).toThrow(/MAX_REJECTS="all" must be a whole number/);
  });
});
