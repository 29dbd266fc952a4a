/** Builds the effective configuration from flags and the environment (flags win). */
import { maskSecretParams } from './secret-names.js';
import { SETTINGS, type Config, type SettingName } from './settings.js';

/** A configuration that failed validation; the message lists every bad value. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Flag values keyed by setting name (commander's camelCase option names). */
export type FlagValues = Partial<Record<SettingName, string>>;

/** Validates every setting; throws one ConfigError naming all bad values. */
export function loadConfig(flags: FlagValues = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, s] of Object.entries(SETTINGS) as [SettingName, (typeof SETTINGS)[SettingName]][]) {
    const fromFlag = flags[name];
    const raw = fromFlag ?? env[s.env];
    if (raw === undefined) {
      out[name] = s.default;
      continue;
    }
    try {
      out[name] = (s.parse as (r: string) => unknown)(raw);
    } catch (err) {
      const source = fromFlag !== undefined ? s.flag.split(' ')[0] : s.env;
      problems.push(`${source}=${JSON.stringify(s.secret ? '***' : raw)} ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as Config;
}

/** The configuration as text for `--print-config`, secrets masked. */
export function describeConfig(config: Config): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(SETTINGS) as [SettingName, (typeof SETTINGS)[SettingName]][]) {
    const value = config[name];
    if (!s.secret || value === undefined) out[s.env] = value;
    else out[s.env] = name === 'databaseUrl' || name === 'databaseReadUrl' || name === 'redisUrl' ? maskSecret(String(value)) : '***';
  }
  return out;
}

/**
 * Keeps a connection URL's shape but hides its credentials: the password of its userinfo and every
 * query parameter named like a secret (`password`, `sslpassword`, `pass`, ...: pg and ioredis read
 * them). A plain file path is shown as is.
 */
export function maskSecret(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol === 'file:' || u.host === '') return '***';
    if (u.password !== '') u.password = '***';
    else if (u.username !== '') u.username = '***';
    if (u.search !== '') u.search = maskSecretParams(u.search, '***');
    return u.toString();
  } catch {
    // A plain SQLite path is no secret; anything else that is not a URL is masked whole.
    return /^[\w./-]+$/.test(value) && !value.includes('=') ? value : '***';
  }
}

/** Shortest statement timeout of a bulk writer (import, copy, demo): the configured one is tuned for single reads. */
export const BULK_STATEMENT_TIMEOUT_MS = 60_000;

/**
 * The store options a configuration sets. A bulk writer's statements carry up to thousands of rows
 * and tens of megabytes each, so they get at least a minute.
 */
export function storeOptionsOf(config: Config, use: 'reads' | 'bulk writes' = 'reads'): { poolSize: number; statementTimeoutMs: number } {
  const timeout = use === 'bulk writes' ? Math.max(config.pgStatementTimeout, BULK_STATEMENT_TIMEOUT_MS) : config.pgStatementTimeout;
  return { poolSize: config.pgPoolSize, statementTimeoutMs: timeout };
}
