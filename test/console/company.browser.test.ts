/** The company file and company search of the analyst console, in headless Chromium over the real service and demo companies. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumMissingOnCi, consoleErrors, chromiumPresent, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';
import type { CompanyDetails } from '../../src/contract/index.js';
import { generateDemo, sampleFileFor, type DemoDocumentRef } from '../../src/demo/index.js';

warnIfSkipped('company.browser.test');

// Two projects of 55 demo companies each (more than one page of 50), with beneficiaries, claims and documents whose files are stored.
const DOCUMENTS: DemoDocumentRef[] = [];
const LINES = [
  ...generateDemo({
    projects: 2, companies: 55, individuals: 2, executionsPerCustomer: 0, heavyCustomerExecutions: 0, alerts: 12, largeAlertRatio: 0, extraFields: false,
    onDocument: (doc) => DOCUMENTS.push(doc),
  }),
];
const ALL_COMPANIES = LINES.map((l) => JSON.parse(l) as { kind: string; record: CompanyDetails }).filter((l) => l.kind === 'customer' && l.record.type === 'Company').map((l) => l.record);
const PROJECT = ALL_COMPANIES[0]!.cmsProjectId;
const COMPANIES = ALL_COMPANIES.filter((c) => c.cmsProjectId === PROJECT);
const OTHER = ALL_COMPANIES.find((c) => c.cmsProjectId !== PROJECT)!;
const nameOf = (c: CompanyDetails) => c.companyClaims?.find((claim) => claim.companyName)?.companyName ?? undefined;
/** A company with a name, individual and company beneficiaries if any has both, and documents. */
const RICH =
  COMPANIES.find((c) => nameOf(c) && (c.beneficiaries?.individualBeneficiaries?.length ?? 0) > 0 && (c.beneficiaries?.companyBeneficiaries?.length ?? 0) > 0 && (c.documents?.length ?? 0) > 0) ??
  COMPANIES.find((c) => nameOf(c) && (c.beneficiaries?.individualBeneficiaries?.length ?? 0) > 0 && (c.documents?.length ?? 0) > 0)!;

interface NotedAlert {
  id: string;
  cmsProjectId: string;
  notes?: { name: string; documents?: { filename: string; mimetype: string }[] }[];
}
/** An alert of the project with a note that carries a document. */
const NOTED = LINES.map((l) => JSON.parse(l) as { kind: string; record: NotedAlert })
  .filter((l) => l.kind === 'alert' && l.record.cmsProjectId === PROJECT)
  .map((l) => l.record)
  .find((a) => a.notes?.some((n) => (n.documents?.length ?? 0) > 0));

let ui: ConsoleUnderTest | undefined;

beforeAll(async () => {
  if (chromiumPresent) ui = await startConsole(LINES, async (service) => {
    for (const doc of DOCUMENTS) await service.files.putBytes(doc.cmsProjectId, doc.objectKey, sampleFileFor(doc.mimetype).bytes);
  });
});

afterAll(async () => ui?.close());

describe('the company file and company search in a browser', () => {
  it.runIf(chromiumMissingOnCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it.skipIf(!chromiumPresent)('searches a company from the header, opens its file with beneficiaries, claims and a document that downloads', async () => {
    const name = nameOf(RICH)!;
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused = consoleErrors(page);
    await page.goto(`${ui!.service.url}/console/alerts#key=${key}`);
    await page.getByLabel('Search companies').fill(name);
    await page.getByLabel('Search companies').press('Enter');
    await page.waitForURL((url) => url.pathname === '/console/companies' && url.searchParams.get('q') === name);
    await page.getByRole('heading', { level: 1, name: `Companies matching “${name}”` }).waitFor();
    const result = page.locator(`table.companies-table a[href="/console/companies/${RICH.id}"]`);
    await result.waitFor();
    expect(await result.textContent()).toBe(name);
    await page.screenshot({ path: join(SHOTS, 'company-search-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    await result.click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(page.url()).toBe(`${ui!.service.url}/console/companies/${RICH.id}`);
    const facts = await page.locator('.company-head .facts').textContent();
    expect(facts).toContain(RICH.externalCustomerId!);
    if (RICH.status) expect(await page.locator('.company-head .badges').textContent()).toContain(RICH.status);

    // Beneficiaries: every individual and company one, by name, with its ownership.
    const beneficiaries = [...(RICH.beneficiaries?.individualBeneficiaries ?? []), ...(RICH.beneficiaries?.companyBeneficiaries ?? [])];
    await page.getByRole('heading', { level: 2, name: `Beneficiaries (${beneficiaries.length})` }).waitFor();
    expect(await page.locator('table.beneficiaries tbody tr td:first-child').allTextContents()).toEqual(beneficiaries.map((b) => b.name ?? '—'));
    const owner = beneficiaries.find((b) => typeof b.ownershipPercentage === 'number')!;
    expect(await page.locator('table.beneficiaries tbody').textContent()).toContain(`${owner.ownershipPercentage!.toLocaleString('en', { maximumFractionDigits: 2 })} %`);

    // Claims as readable fields, not JSON.
    const claim = RICH.companyClaims![0]!;
    const claims = await page.locator('.claim').first().textContent();
    expect(claims).toContain(claim.registrationNumber!);
    expect(claims).not.toContain('{');

    // Documents: a link per document, through its signed URL, that downloads with the page's own request context.
    const documents = RICH.documents!;
    await page.getByRole('heading', { level: 2, name: `Documents (${documents.length})` }).waitFor();
    const links = page.locator('ul.documents a.doc-link');
    expect(await links.count()).toBe(documents.length);
    const href = (await links.first().getAttribute('href'))!;
    expect(new URL(href).origin).toBe(ui!.service.url);
    expect(new URL(href).pathname).toMatch(/^\/v1\/files\//);
    expect(await links.first().getAttribute('target')).toBe('_blank');
    const download = await page.request.get(href);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toContain(documents[0]!.document.mimetype!);

    // An image document's preview loads under the CSP (img-src 'self': the signed URL is the service's own).
    const images = documents.filter((d) => d.document.mimetype?.startsWith('image/'));
    const previews = page.locator('ul.documents img.doc-preview');
    expect(await previews.count()).toBe(images.length);
    if (images.length > 0) await expect.poll(() => previews.first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);

    await page.screenshot({ path: join(SHOTS, 'company-1280.png'), fullPage: true });
    // Keyboard: Tab alone reaches the header's search and every document link; the beneficiaries table fits, so it is no Tab stop.
    await page.locator('body').focus();
    const reached: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement!;
        return el.getAttribute('aria-labelledby') ?? el.getAttribute('href') ?? el.getAttribute('name') ?? el.tagName;
      }));
    }
    expect(reached).toContain('q');
    expect(reached.some((r) => r.startsWith('beneficiaries'))).toBe(false);
    for (const link of await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))) expect(reached).toContain(link);

    expect(await seriousViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();

    // A phone: the same file by link, nothing serious for axe.
    const phone = await ui!.browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto(`${ui!.service.url}/console/companies/${RICH.id}#key=${key}`);
    await small.getByRole('heading', { level: 2, name: `Documents (${documents.length})` }).waitFor();
    if (images.length > 0) await expect.poll(() => small.locator('ul.documents img.doc-preview').first().evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await small.screenshot({ path: join(SHOTS, 'company-390.png'), fullPage: true });
    // Too wide for a phone, the table scrolls sideways: then it is a Tab stop, a region named apart from its section.
    const wrap = small.locator('section[aria-labelledby=beneficiaries] .table-wrap');
    await expect.poll(() => wrap.getAttribute('tabindex')).toBe('0');
    expect(await small.getByRole('region', { name: `Beneficiaries (${beneficiaries.length}) table scrolling sideways` }).count()).toBe(1);
    expect(await seriousViolations(small)).toEqual([]);
    await phone.close();
  });

  it.skipIf(!chromiumPresent)('lists every company newest update first on an empty search, the next page by Load more', async () => {
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/companies?q=Zyxwvut#key=${key}`);
    await page.getByRole('heading', { level: 1, name: 'Companies matching “Zyxwvut”' }).waitFor();
    await page.getByText('No company matches “Zyxwvut”.').waitFor();
    expect(await page.getByLabel('Search companies').inputValue()).toBe('Zyxwvut');
    await page.getByLabel('Search companies').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${ui!.service.url}/console/companies`);
    await page.getByText('50 companies shown').waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`${COMPANIES.length} companies`, { exact: true }).waitFor();
    const ids = await page.locator('table.companies-table tbody tr .row-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.split('/').pop()));
    const newest = [...COMPANIES].sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : Date.parse(b.updatedAt!) - Date.parse(a.updatedAt!)));
    expect(ids).toEqual(newest.map((c) => c.id));
    await context.close();
  });

  it.skipIf(!chromiumPresent)('links a note’s documents on the alert, each opening through its signed URL', async () => {
    expect(NOTED).toBeDefined();
    const doc = NOTED!.notes!.flatMap((n) => n.documents ?? [])[0]!;
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    const refused = consoleErrors(page);
    await page.goto(`${ui!.service.url}/console/alerts/${NOTED!.id}#key=${key}`);
    const link = page.getByRole('list', { name: 'Documents of the note' }).first().getByRole('link', { name: doc.filename });
    await link.waitFor();
    const href = (await link.getAttribute('href'))!;
    expect(new URL(href).pathname).toMatch(/^\/v1\/files\//);
    const download = await page.request.get(href);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-type']).toContain(doc.mimetype);
    expect(refused).toEqual([]);
    await context.close();
  });

  it.skipIf(!chromiumPresent)('says a company of another project is not in this one, and names the scope a key lacks', async () => {
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/companies/${OTHER.id}#key=${key}`);
    await page.getByRole('alert').filter({ hasText: 'Not in this project' }).waitFor();

    const { key: alertsOnly } = await ui!.service.key(PROJECT, { scopes: ['alerts:read'] });
    const other = await ui!.browser.newContext();
    const limited = await other.newPage();
    await limited.goto(`${ui!.service.url}/console/companies/${RICH.id}#key=${alertsOnly}`);
    await limited.getByText('This key lacks the companies:read scope.').waitFor();
    await limited.goto(`${ui!.service.url}/console/companies?q=x#key=${alertsOnly}`);
    await limited.getByText('This key lacks the companies:read scope.').waitFor();
    await other.close();
    await context.close();
  });
});
