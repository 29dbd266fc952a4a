/** The company list over real HTTP: filters, search, relevance, keyset paging, cursors, refusals. */
import { writeFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instantKey } from '../../src/contract/index.js';
import { importFiles } from '../../src/ingest/importer.js';
import { companySpecLine, numberedId, summaryOfSpec, type CompanySpec } from '../support/companies.js';
import { individualLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const P = 'proj-a';
const OTHER = 'proj-b';
const STATUSES = ['Active', 'Dormant', 'To be reviewed'];
const LEVELS = ['KYB', 'Onboarded'];
const RISKS = ['Low', 'Medium', 'High'];
const COUNTRIES = ['FRA', 'DEU', 'GBR', 'ITA'];
const DAY = (d: number): string => new Date(Date.UTC(2024, 1, 1 + d, 12)).toISOString();

const generic: CompanySpec[] = Array.from({ length: 30 }, (_, i) => ({
  id: numberedId(i),
  project: P,
  name: `Generic Holding ${i}`,
  registrationNumber: `GEN-${i}`,
  country: COUNTRIES[i % 4],
  status: STATUSES[i % 3],
  onboardingLevel: LEVELS[i % 2],
  riskScore: RISKS[i % 3],
  // Several companies share each instant: ties are broken by id.
  updatedAt: i === 29 ? undefined : DAY(i % 7),
}));
const ACME_LTD: CompanySpec = { id: numberedId(1, 'aaaa'), project: P, name: 'ACME Exchange Ltd Holdings', registrationNumber: 'HRB 123-456', country: 'DEU', updatedAt: DAY(20) };
const ACME: CompanySpec = { id: numberedId(2, 'aaaa'), project: P, name: 'ACME', registrationNumber: 'X1', updatedAt: DAY(21) };
const ACME_EXCHANGE: CompanySpec = { id: numberedId(3, 'aaaa'), project: P, name: 'Acme Exchange', updatedAt: DAY(22) };
const SOCIETE: CompanySpec = {
  id: numberedId(4, 'aaaa'),
  project: P,
  name: 'Société Générale',
  registrationNumber: '552 120 222',
  externalId: 'EXT-42',
  externalCustomerId: 'cust-abc-9',
  country: 'FRA',
  updatedAt: DAY(23),
};
const FOREIGN_ACME: CompanySpec = { id: numberedId(5, 'aaaa'), project: OTHER, name: 'ACME Exchange Foreign', registrationNumber: 'HRB 123-456', updatedAt: DAY(24) };
const model = [...generic, ACME_LTD, ACME, ACME_EXCHANGE, SOCIETE];
// A project of its own for ranking: companies found by their identifiers only, with short texts.
const RANKED = 'proj-ranked';
const RANKED_BY_NAME: CompanySpec[] = [
  { id: numberedId(1, 'cccc'), project: RANKED, name: 'Acme', externalCustomerId: 'cust-1', updatedAt: DAY(1) },
  { id: numberedId(2, 'cccc'), project: RANKED, name: 'Acme Exchange Ltd', externalCustomerId: 'cust-2', updatedAt: DAY(2) },
];
const RANKED_BY_ID: CompanySpec[] = [
  { id: numberedId(3, 'cccc'), project: RANKED, externalCustomerId: 'ACME-3', updatedAt: DAY(3) },
  { id: numberedId(4, 'cccc'), project: RANKED, name: 'Northwind', registrationNumber: 'ACME 4', updatedAt: DAY(4) },
];

let svc: TestService;
let key: string;

beforeAll(async () => {
  const lines = [...model, FOREIGN_ACME, ...RANKED_BY_NAME, ...RANKED_BY_ID].map(companySpecLine);
  svc = await startTestService([...lines, individualLine(P, 'bbbbbbbb-0000-4000-8000-000000000000')]);
  key = (await svc.key(P)).key;
});
afterAll(async () => svc?.close());

interface Summary {
  id: string;
  companyName: string | null;
  status: string | null;
}

const get = (path: string, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${svc.url}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });

const nextOf = (res: Response): string | null => {
  const link = res.headers.get('link');
  return link === null ? null : /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
};

async function ids(query: string): Promise<string[]> {
  const res = await get(`/v1/companies${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as Summary[]).map((s) => s.id);
}

/** Every id of a query, following Link headers. */
async function allIds(query: string): Promise<string[]> {
  const out: string[] = [];
  let path: string | null = `/v1/companies${query}`;
  let guard = 0;
  while (path !== null && guard++ < 500) {
    const res = await get(path);
    expect(res.status).toBe(200);
    out.push(...((await res.json()) as Summary[]).map((s) => s.id));
    path = nextOf(res);
  }
  return out;
}

const sortKeyOf = (s: CompanySpec): string => (s.updatedAt === undefined ? '' : instantKey(s.updatedAt));
const byUpdated = (order: 'asc' | 'desc', specs: CompanySpec[]): string[] => {
  const sorted = [...specs].sort((a, b) => (sortKeyOf(a) < sortKeyOf(b) ? -1 : sortKeyOf(a) > sortKeyOf(b) ? 1 : a.id < b.id ? -1 : 1));
  return (order === 'asc' ? sorted : sorted.reverse()).map((s) => s.id);
};

describe('company list', () => {
  it("lists the project's companies newest first, ties by id, individuals and other projects left out", async () => {
    expect(await allIds('?limit=200')).toEqual(byUpdated('desc', model));
    expect(await allIds('?order=asc&limit=200')).toEqual(byUpdated('asc', model));
  });

  it('answers each summary as companySummaryOf the record, in schema key order', async () => {
    const res = await get('/v1/companies?limit=200', { 'accept-encoding': 'identity' });
    const text = await res.text();
    const expected = `[${byUpdated('desc', model)
      .map((id) => JSON.stringify(summaryOfSpec(model.find((s) => s.id === id)!)))
      .join(',')}]`;
    expect(text).toBe(expected);
  });

  it('serves gzip laid out from stored pieces, the same JSON, and 304 for the page ETag', async () => {
    const plain = await (await get('/v1/companies?limit=5', { 'accept-encoding': 'identity' })).text();
    const res = await get('/v1/companies?limit=5', { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    // node:http does not decode, unlike fetch: the bytes on the wire are checked.
    const raw = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      httpGet(`${svc.url}/v1/companies?limit=5`, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' } }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => resolve({ encoding: r.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(raw.encoding).toBe('gzip');
    expect(gunzipSync(raw.bytes).toString()).toBe(plain);
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const again = await get('/v1/companies?limit=5', { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it('filters by each of status, onboardingLevel, riskScore and country, repeated for any of several', async () => {
    const check = async (query: string, keep: (s: CompanySpec) => boolean): Promise<void> => {
      const expected = byUpdated('desc', model.filter(keep));
      expect(expected.length).toBeGreaterThan(0);
      expect(await allIds(`?limit=200&${query}`)).toEqual(expected);
    };
    await check('status=Dormant', (s) => s.status === 'Dormant');
    await check('status=Dormant&status=Active', (s) => s.status === 'Dormant' || s.status === 'Active');
    await check('onboardingLevel=KYB', (s) => s.onboardingLevel === 'KYB');
    await check('riskScore=High&riskScore=Low', (s) => s.riskScore === 'High' || s.riskScore === 'Low');
    await check('country=DEU', (s) => s.country === 'DEU');
    await check('country=FRA&status=Active&riskScore=Low', (s) => s.country === 'FRA' && s.status === 'Active' && s.riskScore === 'Low');
  });

  it('filters updatedFrom inclusive and updatedTo exclusive, a plain date meaning midnight UTC', async () => {
    const from = DAY(2);
    const to = DAY(5);
    const inRange = (s: CompanySpec): boolean => s.updatedAt !== undefined && s.updatedAt >= from && s.updatedAt < to;
    expect(await allIds(`?limit=200&updatedFrom=${from}&updatedTo=${to}`)).toEqual(byUpdated('desc', model.filter(inRange)));
    const day = '2024-02-03';
    expect(await allIds(`?limit=200&updatedFrom=${day}`)).toEqual(byUpdated('desc', model.filter((s) => s.updatedAt !== undefined && s.updatedAt >= `${day}T00:00:00.000Z`)));
    expect(await allIds(`?limit=200&updatedTo=${day}`)).toEqual(byUpdated('desc', model.filter((s) => s.updatedAt === undefined || s.updatedAt < `${day}T00:00:00.000Z`)));
  });

  it('pages through every company exactly once with small limits, filters kept in the Link', async () => {
    for (const limit of [1, 3, 7]) {
      expect(await allIds(`?limit=${limit}`)).toEqual(byUpdated('desc', model));
    }
    const res = await get('/v1/companies?limit=2&status=Dormant&country=DEU');
    const next = nextOf(res)!;
    expect(next).toContain('status=Dormant');
    expect(next).toContain('country=DEU');
    expect(next).toContain('limit=2');
    expect(await allIds('?limit=2&status=Dormant')).toEqual(byUpdated('desc', model.filter((s) => s.status === 'Dormant')));
  });
});

describe('company search', () => {
  const found = async (q: string): Promise<string[]> => (await ids(`?q=${encodeURIComponent(q)}`)).sort();
  const sorted = (...specs: CompanySpec[]): string[] => specs.map((s) => s.id).sort();

  it('finds a word of the name in any case, and prefixes of words', async () => {
    expect(await found('acme')).toEqual(sorted(ACME_LTD, ACME, ACME_EXCHANGE));
    expect(await found('AcMe')).toEqual(sorted(ACME_LTD, ACME, ACME_EXCHANGE));
    expect(await found('exch')).toEqual(sorted(ACME_LTD, ACME_EXCHANGE));
    expect(await found('holding')).toEqual(sorted(...generic, ACME_LTD));
  });

  it('ignores accents on either side', async () => {
    expect(await found('societe')).toEqual(sorted(SOCIETE));
    expect(await found('Générale')).toEqual(sorted(SOCIETE));
    expect(await found('GENERALE soc')).toEqual(sorted(SOCIETE));
  });

  it('matches registration numbers with or without their spaces and dashes', async () => {
    for (const q of ['hrb123456', 'HRB123-456', '123456', '123 456', 'HRB 123-456', 'hrb 123']) {
      expect(await found(q), q).toEqual(sorted(ACME_LTD));
    }
    expect(await found('552120222')).toEqual(sorted(SOCIETE));
    expect(await found('120222')).toEqual(sorted(SOCIETE));
  });

  it('matches externalId and externalCustomerId', async () => {
    expect(await found('ext42')).toEqual(sorted(SOCIETE));
    expect(await found('EXT-42')).toEqual(sorted(SOCIETE));
    expect(await found('custabc9')).toEqual(sorted(SOCIETE));
  });

  it('requires every word', async () => {
    expect(await found('acme ltd')).toEqual(sorted(ACME_LTD));
    expect(await found('acme societe')).toEqual([]);
  });

  it('finds nothing for text without letters or digits, and never another project', async () => {
    expect(await found('!!! ---')).toEqual([]);
    expect(await found('foreign')).toEqual([]);
  });

  it('ranks an exact name match first', async () => {
    expect((await ids('?q=acme%20exchange'))[0]).toBe(ACME_EXCHANGE.id);
    expect((await ids('?q=acme'))[0]).toBe(ACME.id);
  });

  it('ranks a company whose name matches before one found by its identifiers only, however short', async () => {
    const res = await fetch(`${svc.url}/v1/companies?q=acme`, { headers: { authorization: `Bearer ${(await svc.key(RANKED)).key}` } });
    const found = ((await res.json()) as Summary[]).map((s) => s.id);
    expect(found.slice(0, 2).sort()).toEqual(RANKED_BY_NAME.map((s) => s.id).sort());
    expect(found.slice(2).sort()).toEqual(RANKED_BY_ID.map((s) => s.id).sort());
  });

  it('pages search results each once, with filters', async () => {
    const all = await ids('?q=holding&limit=200');
    expect(all).toHaveLength(generic.length + 1);
    for (const limit of [1, 4]) expect(await allIds(`?q=holding&limit=${limit}`)).toEqual(all);
    const dormant = await allIds('?q=holding&status=Dormant&limit=2');
    expect(dormant.sort()).toEqual(sorted(...generic.filter((s) => s.status === 'Dormant')));
  });
});

describe('company list refusals', () => {
  const problems = async (query: string): Promise<string[]> => {
    const res = await get(`/v1/companies${query}`);
    expect(res.status, query).toBe(400);
    const body = (await res.json()) as { code: string; issues?: { message: string }[] };
    expect(body.code).toBe('invalid_request');
    return (body.issues ?? []).map((e) => e.message);
  };

  it('refuses bad values, naming the parameter', async () => {
    for (const [query, name] of [
      ['?status=Nope', 'status'],
      ['?onboardingLevel=x', 'onboardingLevel'],
      ['?riskScore=Extreme', 'riskScore'],
      ['?country=XX', 'country'],
      ['?updatedFrom=2024-02-30', 'updatedFrom'],
      ['?updatedTo=yesterday', 'updatedTo'],
      ['?limit=0', 'limit'],
      ['?limit=201', 'limit'],
      ['?q=', 'q'],
      [`?q=${'a'.repeat(201)}`, 'q'],
      ['?order=sideways', 'order'],
      ['?q=acme&order=asc', 'order'],
    ] as const) {
      expect((await problems(query)).join(' '), query).toMatch(new RegExp(`^${name}:`));
    }
  });

  it('refuses a cursor that was altered or issued for other filters or another search', async () => {
    const next = nextOf(await get('/v1/companies?limit=2&status=Active'))!;
    const cursor = new URL(next, svc.url).searchParams.get('cursor')!;
    expect((await problems(`?limit=2&status=Dormant&cursor=${cursor}`))[0]).toMatch(/^cursor:/);
    expect((await problems(`?limit=2&cursor=${cursor}`))[0]).toMatch(/^cursor:/);
    expect((await problems(`?limit=2&status=Active&cursor=${cursor.slice(0, -2)}xx`))[0]).toMatch(/^cursor:/);
    const searchNext = nextOf(await get('/v1/companies?limit=1&q=acme'))!;
    const searchCursor = new URL(searchNext, svc.url).searchParams.get('cursor')!;
    expect((await problems(`?limit=1&q=acm&cursor=${searchCursor}`))[0]).toMatch(/^cursor:/);
  });
});

describe('a company written again', () => {
  it('answers its new summary and is found by its new name only', async () => {
    const renamed: CompanySpec = { ...ACME_LTD, name: 'Zenith Trading', registrationNumber: 'HRB 999', status: 'Dormant', updatedAt: DAY(30) };
    const file = join(svc.dir, 'update.ndjson');
    writeFileSync(file, companySpecLine(renamed) + '\n');
    const summary = await importFiles(svc.store, [file]);
    expect(summary.stored).toBe(1);
    expect(await ids('?q=zenith')).toEqual([renamed.id]);
    expect(await ids('?q=hrb999')).toEqual([renamed.id]);
    expect(await ids('?q=hrb123456')).toEqual([]);
    expect((await ids('?q=ltd'))).toEqual([]);
    const first = (await (await get('/v1/companies?limit=1')).json()) as unknown[];
    expect(first).toEqual([summaryOfSpec(renamed)]);
    expect(await ids('?status=Dormant&limit=200')).toContain(renamed.id);
  });

  it('leaves the list and the search once written again as another type than Company', async () => {
    const former = generic[5]!;
    expect(await ids('?q=generic%20holding%205')).toContain(former.id);
    const file = join(svc.dir, 'retyped.ndjson');
    writeFileSync(file, JSON.stringify({ kind: 'customer', record: { id: former.id, cmsProjectId: P, type: 'Individual', updatedAt: DAY(40) } }) + '\n');
    expect((await importFiles(svc.store, [file])).stored).toBe(1);
    expect(await ids('?q=generic%20holding%205')).not.toContain(former.id);
    expect(await allIds('?limit=200')).not.toContain(former.id);
    expect((await get(`/v1/companies/${former.id}/details`)).status).toBe(404);
  });
});
