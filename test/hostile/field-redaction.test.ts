/**
 * Field redaction, property-based over demo records (beneficiaries, claims, document metadata,
 * notes, audit snapshots, screening hits, transactions' counterparties, extra members): a key
 * without `pii:read` finds no personal string of any record in any answer of any route, plain,
 * gzip or br, nor in the service's log; a key without `documents:read` gets no document address;
 * without `screening:read` no screening data. Every answer stays valid under the contract, and is
 * exactly the record with the withheld classes masked.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_CLASSES } from '../../src/contract/field-classes.js';
import { validateRecord } from '../../src/contract/validators.js';
import { generateDemo } from '../../src/demo/index.js';
import type { Scope } from '../../src/store/api-keys.js';
import { personalStrings, shownAs } from '../support/personal-values.js';
import { startTestService, type TestService } from '../support/test-service.js';

const RUNS = Number(process.env.HOSTILE_RUNS ?? 150);
const PROJECT = 'proj-acme-exchange';
const lines = [
  ...generateDemo({ seed: 77, projects: [PROJECT], companies: 12, individuals: 3, executionsPerCustomer: 3, heavyCustomerExecutions: 0, alerts: 24, largeAlertRatio: 0, extraFields: true }),
];

interface Env {
  kind: 'customer' | 'alert' | 'execution';
  customerId?: string;
  record: Record<string, unknown>;
}
const envs = lines.map((l) => JSON.parse(l) as Env);
const companies = envs.filter((e) => e.kind === 'customer' && e.record.type === 'Company').map((e) => e.record);
const alerts = envs.filter((e) => e.kind === 'alert').map((e) => e.record);
const executions = envs.filter((e) => e.kind === 'execution');
const customersWithExecutions = [...new Set(executions.map((e) => e.customerId!))];
const personal = personalStrings([
  ...companies.map((record) => ({ kind: 'company' as const, record })),
  ...alerts.map((record) => ({ kind: 'alert' as const, record })),
  ...executions.map((e) => ({ kind: 'execution' as const, record: e.record })),
]);

const READS: Scope[] = ['companies:read', 'executions:read', 'alerts:read', 'changes:read'];
const BITS = FIELD_CLASSES;
const logLines: string[] = [];
let svc: TestService;
const keys = new Map<number, string>();

/** A key that has every read scope and the data scopes not in `withheld`. */
async function keyWithout(withheld: number): Promise<string> {
  let key = keys.get(withheld);
  if (key === undefined) {
    const data = Object.values(BITS).filter((c) => (c.bit & withheld) === 0).map((c) => c.scope as Scope);
    key = (await svc.key(PROJECT, { scopes: [...READS, ...data] })).key;
    keys.set(withheld, key);
  }
  return key;
}

/** A GET whose body is decoded here (fetch would decode it itself), so the bytes as sent are what is checked. */
function get(path: string, key: string, encoding: 'identity' | 'gzip' | 'br'): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${svc.url}/v1${path}`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const body = enc === 'gzip' ? gunzipSync(raw) : enc === 'br' ? brotliDecompressSync(raw) : raw;
        resolve({ status: res.statusCode ?? 0, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function leaked(text: string): string[] {
  return personal.filter((s) => text.includes(JSON.stringify(s).slice(1, -1)));
}

/**
 * A log line without what varies by chance: a random request id, the clock, the process id, the
 * client's port and the time taken can hold a short personal string (a postal code such as 80-054
 * or 49706) by chance.
 */
function withoutChance(line: string): string {
  const { reqId: _id, time: _time, pid: _pid, responseTime: _took, req, ...rest } = JSON.parse(line) as Record<string, unknown>;
  const { remotePort: _port, host: _host, ...request } = (req ?? {}) as Record<string, unknown>;
  return JSON.stringify({ ...rest, req: request });
}

/**
 * An answer without what is random by construction: the feed's etags and document URLs'
 * signatures are keyed hashes, and can hold a short personal string (a country code) by chance.
 */
function withoutRandom(text: string): string {
  return text.replace(/"etag":"[^"]*"/g, '"etag":""').replace(/([?&]sig=)[\w-]+/g, '$1');
}

beforeAll(async () => {
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  svc = await startTestService(lines, { logger });
}, 120_000);
afterAll(async () => svc?.close());

describe('field redaction by key scope', () => {
  it('has personal strings to look for in every kind of record', () => {
    expect(personal.length).toBeGreaterThan(200);
    expect(companies.length).toBeGreaterThan(5);
    expect(alerts.some((a) => a.screeningProviderData != null)).toBe(true);
  });

  it('shows every field to a key with every data scope, byte for byte as stored', async () => {
    const key = await keyWithout(0);
    for (const c of companies.slice(0, 4)) {
      const { status, text } = await get(`/companies/${c.id as string}/details`, key, 'identity');
      expect(status).toBe(200);
      // Document URLs are signed per request; everything else is the stored record.
      expect(stripUrls(JSON.parse(text))).toEqual(stripUrls(c));
    }
  });

  const routes = fc.oneof(
    fc.nat(companies.length - 1).map((i) => ({ kind: 'company' as const, path: `/companies/${companies[i]!.id as string}/details`, record: i })),
    fc.nat(alerts.length - 1).map((i) => ({ kind: 'alert' as const, path: `/alerts/${alerts[i]!.id as string}`, record: i })),
    fc.constantFrom(...customersWithExecutions).map((id) => ({ kind: 'executions' as const, path: `/customers/${id}/scenario-executions?limit=200`, record: id })),
    fc.constantFrom('/alerts?limit=200', '/companies?limit=200', '/changes?limit=1000', '/alerts/counts', '/companies?q=ltd').map((path) => ({ kind: 'list' as const, path, record: null })),
  );

  it('never shows a withheld class, in any route, encoding or log line, and every record answer is the record masked and valid', async () => {
    await fc.assert(
      fc.asyncProperty(routes, fc.integer({ min: 1, max: 7 }), fc.constantFrom('identity' as const, 'gzip' as const, 'br' as const), async (route, withheld, encoding) => {
        const key = await keyWithout(withheld);
        const { status, text } = await get(route.path, key, encoding);
        expect(status).toBe(200);
        if ((withheld & BITS.pii.bit) !== 0) expect(leaked(withoutRandom(text))).toEqual([]);
        if ((withheld & BITS.documents.bit) !== 0) expect(text).not.toMatch(/\/v1\/files\/|https?:\/\/[^"]*\.(pdf|jpe?g|png)/);
        const body = JSON.parse(text) as unknown;
        if (route.kind === 'company' || route.kind === 'alert') {
          const kind = route.kind === 'company' ? 'customer' : 'alert';
          expect(validateRecord(kind, body).ok).toBe(true);
          const record = (route.kind === 'company' ? companies : alerts)[route.record]!;
          expect(stripUrls(body)).toEqual(stripUrls(shownAs(route.kind, record, withheld)));
          if (route.kind === 'alert' && (withheld & BITS.screening.bit) !== 0) expect((body as { screeningProviderData?: unknown }).screeningProviderData ?? null).toBeNull();
        }
        if (route.kind === 'executions') {
          for (const e of body as unknown[]) expect(validateRecord('execution', e).ok).toBe(true);
          const stored = executions.filter((e) => e.customerId === route.record).map((e) => shownAs('execution', e.record, withheld));
          for (const e of body as { execution_id: string }[]) expect(e).toEqual(stored.find((s) => (s as { execution_id: string }).execution_id === e.execution_id));
        }
      }),
      { numRuns: RUNS },
    );
    if (personal.length > 0) expect(logLines.map(withoutChance).filter((l) => leaked(l).length > 0)).toEqual([]);
  }, 300_000);

  it('gives each view its own ETag, and a key not shown personal data a document URL without the file name', async () => {
    const c = companies.find((x) => Array.isArray(x.documents) && x.documents.length > 0)!;
    const full = await fetch(`${svc.url}/v1/companies/${c.id as string}/details`, { headers: { authorization: `Bearer ${await keyWithout(0)}` } });
    const noPii = await fetch(`${svc.url}/v1/companies/${c.id as string}/details`, { headers: { authorization: `Bearer ${await keyWithout(BITS.pii.bit)}` } });
    expect(full.headers.get('etag')).not.toEqual(noPii.headers.get('etag'));
    const doc = ((await noPii.json()) as { documents: { document: { presignedUrl: string | null } }[] }).documents[0]!.document;
    expect(doc.presignedUrl).toMatch(/\/v1\/files\//);
    expect(doc.presignedUrl).not.toMatch(/filename=/);
    await full.arrayBuffer();
  });

  it('names a redacted view by a keyed tag, not a hash of the stored bytes, in the record answer and the change feed alike', async () => {
    const c = companies[0]!;
    const tagOf = async (key: string): Promise<string> => {
      const res = await fetch(`${svc.url}/v1/companies/${c.id as string}/details`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'identity' } });
      await res.arrayBuffer();
      return res.headers.get('etag')!.replace(/^"|"$/g, '');
    };
    const feedTagOf = async (key: string): Promise<string | null> => {
      const items = (await (await fetch(`${svc.url}/v1/changes?limit=1000`, { headers: { authorization: `Bearer ${key}` } })).json()) as { id: string; etag: string | null }[];
      return items.find((i) => i.id === c.id)!.etag;
    };
    const [fullKey, noPiiKey] = [await keyWithout(0), await keyWithout(BITS.pii.bit)];
    const full = await tagOf(fullKey);
    const masked = await tagOf(noPiiKey);
    expect(await feedTagOf(fullKey)).toBe(full);
    expect(await feedTagOf(noPiiKey)).toBe(masked);
    // The stored bytes' hash, which anyone could compute from guessed values, appears nowhere in the masked tag.
    expect(masked).not.toContain(full);
    expect(masked).toMatch(/^[\w-]{27}\.r\d+/);
  });
});

/** The record without its document URLs (signed per request). */
function stripUrls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUrls);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = k === 'presignedUrl' && typeof v === 'string' && v !== '[redacted]' ? 'signed' : stripUrls(v);
    return out;
  }
  return value;
}
