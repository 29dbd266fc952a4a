/**
 * The alert screen's duplicate customer, credential results and customer link, a 1 MB alert's
 * virtualised hits, printing an alert and a company file to PDF, the PDF preview, the inbox's
 * counts by status and the company list's filters: headless Chromium over the real service and demo data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Alert, CompanyDetails } from '../../src/contract/index.js';
import { ALERT_STATUSES } from '../../src/contract/enums.js';
import { generateDemo, sampleFileFor, type DemoDocumentRef } from '../../src/demo/index.js';
import { CHROMIUM, chromiumMissingOnCi, consoleErrors, chromiumPresent, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';
import { pdfPages } from '../support/pdf-text.js';

warnIfSkipped('case-file.browser.test');

const DOCUMENTS: DemoDocumentRef[] = [];
const LINES = [
  ...generateDemo({
    projects: 1, companies: 8, individuals: 4, executionsPerCustomer: 0, heavyCustomerExecutions: 0, alerts: 40, largeAlertRatio: 0.05, extraFields: false,
    onDocument: (doc) => DOCUMENTS.push(doc),
  }),
];
const RECORDS = LINES.map((l) => ({ bytes: l.length, ...(JSON.parse(l) as { kind: string; record: Record<string, unknown> }) }));
const ALERTS = RECORDS.filter((r) => r.kind === 'alert').map((r) => ({ bytes: r.bytes, alert: r.record as unknown as Alert }));
const CUSTOMERS = new Map(RECORDS.filter((r) => r.kind === 'customer').map((r) => [r.record.id as string, r.record as unknown as CompanyDetails]));
const PROJECT = ALERTS[0]!.alert.cmsProjectId;
const companyName = (id: string) => CUSTOMERS.get(id)?.companyClaims?.find((c) => c.companyName)?.companyName ?? undefined;

const LARGEST = [...ALERTS].sort((a, b) => b.bytes - a.bytes)[0]!;
const DUPLICATE = ALERTS.find((a) => a.alert.duplicateData)!.alert;
const CREDENTIALS = ALERTS.find((a) => a.alert.results?.some((r) => r.data?.IDInformation) && CUSTOMERS.get(a.alert.customerId)?.type === 'Company')!.alert;
const OF_INDIVIDUAL = ALERTS.find((a) => CUSTOMERS.get(a.alert.customerId)?.type === 'Individual')!.alert;
/** An alert whose trail adds a note, with that note's name. */
const NOTED = ALERTS.map(({ alert }) => {
  const i = alert.audits.findIndex((e, k) => k > 0 && (e.record.notes?.length ?? 0) > (alert.audits[k - 1]!.record.notes?.length ?? 0));
  return i < 0 ? undefined : { alert, name: alert.audits[i]!.record.notes!.at(-1)!.name };
}).find((n) => n !== undefined)!;
const WITH_PDF = [...CUSTOMERS.values()].find((c) => c.type === 'Company' && c.documents?.some((d) => d.document.mimetype === 'application/pdf'))!;

let ui: ConsoleUnderTest | undefined;
let key: { key: string; id: string };

beforeAll(async () => {
  if (!chromiumPresent) return;
  ui = await startConsole(LINES, async (service) => {
    for (const doc of DOCUMENTS) await service.files.putBytes(doc.cmsProjectId, doc.objectKey, sampleFileFor(doc.mimetype).bytes);
  });
  key = await ui.service.key(PROJECT);
});
afterAll(async () => ui?.close());

async function open(path: string, width = 1280): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await ui!.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const errors = consoleErrors(page);
  await page.goto(`${ui!.service.url}/console${path}#key=${key.key}`);
  return { page, errors, close: () => context.close() };
}

/** Presses Tab from the top of the page until `test` holds of the focus; the number of presses, or -1 when it never did within `max`. */
async function tabTo(page: Page, test: () => boolean, max = 60): Promise<number> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(test)) return i;
  }
  return -1;
}

/** The page printed to PDF as Chromium prints it (print media, the print state), and the text of its pages; a screenshot of the print layout too. */
async function printed(page: Page, name: string): Promise<string> {
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: join(SHOTS, `${name}-print.png`) });
  const pdf = await page.pdf({ path: join(SHOTS, `${name}.pdf`), format: 'A4', printBackground: true });
  await page.emulateMedia({ media: 'screen' });
  return (await pdfPages(pdf)).join('\n');
}

describe('the case files of the console in a browser', () => {
  it.runIf(chromiumMissingOnCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it('has demo data with every case the tests read', () => {
    expect(LARGEST.bytes).toBeGreaterThan(900_000);
    for (const found of [DUPLICATE, CREDENTIALS, OF_INDIVIDUAL, NOTED, WITH_PDF]) expect(found).toBeDefined();
  });

  it.skipIf(!chromiumPresent)('shows a suspected duplicate customer and credential results in words, and links a company customer to its file', async () => {
    const { page, errors, close } = await open(`/alerts/${DUPLICATE.id}`);
    const duplicate = page.locator('section[aria-labelledby="duplicate"]');
    await duplicate.getByRole('heading', { name: 'Suspected duplicate' }).waitFor();
    // The keyboard reaches the Print button and the duplicate's executions link.
    expect(await tabTo(page, () => document.activeElement?.classList.contains('print-button') === true)).toBeGreaterThan(0);
    expect(await tabTo(page, () => document.activeElement?.closest('.duplicates') !== null && document.activeElement?.tagName === 'A')).toBeGreaterThan(0);
    const text = (await duplicate.textContent())!;
    for (const party of [DUPLICATE.duplicateData!.original, DUPLICATE.duplicateData!.duplicate]) {
      expect(text).toContain(party.customerId);
      if (party.customerInfo) expect(text).toContain(party.customerInfo);
    }
    expect(text).not.toMatch(/[{}"]/);

    await page.goto(`${ui!.service.url}/console/alerts/${CREDENTIALS.id}`);
    const results = page.locator('section[aria-labelledby="results"]');
    await results.getByRole('heading', { name: `Credential results (${CREDENTIALS.results!.length})` }).waitFor();
    expect(await results.locator('li.result').count()).toBe(CREDENTIALS.results!.length);
    const words = (await results.textContent())!;
    expect(words).toContain('ID information credential');
    expect(words).toMatch(/Review(approved|rejected)/);
    const person = (CREDENTIALS.results!.find((r) => r.data?.IDInformation)!.data!.IDInformation!.credentialSubject as { personalData: { fullName: string } }).personalData;
    expect(words).toContain(person.fullName);
    expect(words).not.toMatch(/[{}]|base64|"/);
    await page.locator('section[aria-labelledby="results"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'alert-results-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // A company customer: its name links to its company file.
    const name = companyName(CREDENTIALS.customerId)!;
    await page.locator('.alert-head').getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
    expect(errors).toEqual([]);
    await close();
  });

  it.skipIf(!chromiumPresent)('fits a phone, and says an individual customer has no company file, linking only its executions', async () => {
    const { page, errors, close } = await open(`/alerts/${OF_INDIVIDUAL.id}`, 390);
    const customer = page.locator('.alert-head dd').filter({ hasText: OF_INDIVIDUAL.customerId });
    await customer.getByText('individual customer, no company file').waitFor();
    expect(await customer.locator('a[href*="/companies/"]').count()).toBe(0);
    expect(await customer.getByRole('link', { name: 'executions' }).getAttribute('href')).toBe(`/console/customers/${OF_INDIVIDUAL.customerId}/executions`);
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${ui!.service.url}/console/alerts/${DUPLICATE.id}`);
    await page.locator('section[aria-labelledby="results"] li.result').first().waitFor();
    await page.locator('section[aria-labelledby="duplicate"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'alert-duplicate-390.png') });
    expect(await seriousViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it.skipIf(!chromiumPresent)('reads a note added in the audit trail by its name', async () => {
    const { page, close } = await open(`/alerts/${NOTED.alert.id}`);
    await page.locator('.audit-timeline > li').first().waitFor();
    const lines = await page.locator('.audit-change').allTextContents();
    expect(lines.some((l) => /^notes\[\d+\]: added note “/.test(l) && l.includes(`“${NOTED.name}”`))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/(added|was) id: /);
    await close();
  });

  it.skipIf(!chromiumPresent)('renders only the hits near the viewport of a 1 MB alert, reaches the last by scrolling, and prints them all unfolded', async () => {
    const hits = LARGEST.alert.screeningProviderData!.searchResult.hits!;
    const { page, errors, close } = await open(`/alerts/${LARGEST.alert.id}`);
    await page.getByRole('heading', { name: `Screening hits (${hits.length})` }).waitFor();
    await page.locator('ul.hits > li').first().waitFor();
    const rendered = await page.locator('ul.hits > li').count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(hits.length / 4);
    expect(await page.locator('ul.hits > li').first().getAttribute('aria-setsize')).toBe(String(hits.length));

    // Scrolling to the end brings the last hit, whose Details the keyboard unfolds.
    const last = page.locator(`ul.hits > li[aria-posinset="${hits.length}"]`);
    for (let i = 0; i < 40 && (await last.count()) === 0; i++) {
      await page.mouse.wheel(0, 4000);
      await page.waitForTimeout(50);
    }
    await last.waitFor();
    expect(await last.locator('strong').first().textContent()).toBe(hits.at(-1)!.doc.name);
    await last.getByRole('button').focus();
    await page.keyboard.press('Enter');
    expect(await last.getByRole('button').getAttribute('aria-expanded')).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);

    // Printed: every hit, each unfolded, no header or controls, the footer naming the time and the key.
    await page.evaluate(() => window.scrollTo(0, 0));
    const text = await printed(page, 'alert-1mb');
    for (const section of ['Description', 'Notes', `Screening hits (${hits.length})`, 'Duplicate customer', 'Credential results', 'Audit trail', 'Transactions']) expect(text).toContain(section);
    expect(text).toContain(hits[0]!.doc.name);
    expect(text).toContain(hits.at(-1)!.doc.name);
    expect(text.split('Entity type').length - 1).toBe(hits.length);
    expect(text).toMatch(new RegExp(`Printed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC · read with key ${key.key.slice(0, 16)}`));
    // On every page, with its number.
    const pages = await pdfPages(readFileSync(join(SHOTS, 'alert-1mb.pdf')));
    expect(pages.length).toBeGreaterThan(20);
    pages.forEach((p, i) => {
      expect(p).toContain(`read with key ${key.key.slice(0, 16)}`);
      expect(p).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    expect(text).not.toContain('Search companies');
    expect(text).not.toContain('Sign out');
    // Back on screen, the list is virtualised again.
    await expect.poll(() => page.locator('ul.hits > li').count()).toBeLessThan(hits.length / 4);
    expect(errors).toEqual([]);
    await close();
  });

  it.skipIf(!chromiumPresent)('previews a company PDF document with pdf.js under the page CSP, and prints the company file', async () => {
    const { page, errors, close } = await open(`/companies/${WITH_PDF.id}`);
    const preview = page.locator('figure.pdf-preview[data-state="rendered"] canvas');
    await preview.first().waitFor();
    expect(await preview.first().getAttribute('aria-label')).toMatch(/^Preview of .+, page 1 of 1$/);
    // Something was drawn: the canvas is not one flat colour.
    const colours = await preview.first().evaluate((c: HTMLCanvasElement) => {
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 16) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(2);
    // pdf.js came as a chunk of its own with its worker, both from the console's assets.
    const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((n) => /\.m?js$/.test(n)));
    expect(scripts.some((s) => /\/console\/assets\/pdf\.worker\.min-[\w-]+\.mjs$/.test(s))).toBe(true);
    await page.locator('section[aria-labelledby="documents"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'company-pdf-preview-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    await page.evaluate(() => window.scrollTo(0, 0));
    const text = await printed(page, 'company');
    for (const section of ['Beneficiaries', 'Company claims', 'Documents']) expect(text).toContain(section);
    expect(text).toContain(companyName(WITH_PDF.id)!);
    expect(text).toMatch(/Printed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · read with key crs_/);
    expect(text).not.toContain('Search companies');
    expect(errors).toEqual([]);
    await close();
  });

  it.skipIf(!chromiumPresent)('shows the inbox counts by status for the current filters, each a link to that status', async () => {
    const { page, errors, close } = await open('/alerts?severity=High');
    const high = ALERTS.map((a) => a.alert).filter((a) => a.severity === 'High');
    const counts = page.getByRole('navigation', { name: 'Alerts by status' });
    await counts.getByRole('link', { name: `All ${high.length}` }).waitFor();
    for (const status of ALERT_STATUSES) {
      await counts.getByRole('link', { name: `${status} ${high.filter((a) => a.status === status).length}`, exact: true }).waitFor();
    }
    expect(await tabTo(page, () => document.activeElement?.closest('.status-counts') !== null)).toBeGreaterThan(0);
    const open_ = high.filter((a) => a.status === 'Open');
    await counts.getByRole('link', { name: `Open ${open_.length}`, exact: true }).click();
    await page.waitForURL(/severity=High/);
    expect(new URL(page.url()).searchParams.getAll('status')).toEqual(['Open']);
    await page.getByText(`${open_.length} alert${open_.length === 1 ? '' : 's'}`, { exact: true }).waitFor();
    expect(await counts.getByRole('link', { name: `Open ${open_.length}`, exact: true }).getAttribute('aria-current')).toBe('true');
    expect(errors).toEqual([]);
    await close();
  });

  it.skipIf(!chromiumPresent)('filters the company list by status, onboarding level, risk score and country through the URL', async () => {
    const companies = [...CUSTOMERS.values()].filter((c) => c.type === 'Company');
    const risk = companies[0]!.riskScore!;
    const { page, errors, close } = await open('/companies');
    await page.getByText(`${companies.length} compan${companies.length === 1 ? 'y' : 'ies'}`, { exact: true }).waitFor();
    await page.getByRole('group', { name: 'Risk score' }).getByRole('checkbox', { name: risk, exact: true }).check();
    await page.waitForURL(/riskScore=/);
    const kept = companies.filter((c) => c.riskScore === risk);
    await page.getByText(`${kept.length} compan${kept.length === 1 ? 'y' : 'ies'}`, { exact: true }).waitFor();
    expect(await page.locator('table.companies-table tbody tr').count()).toBe(kept.length);
    await page.screenshot({ path: join(SHOTS, 'companies-filtered-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // A country no company has: nothing matches, and the sentence says so; back restores the risk filter.
    expect(await tabTo(page, () => document.activeElement?.id === 'country')).toBeGreaterThan(0);
    await page.getByLabel('Country').selectOption('ATA');
    await page.waitForURL(/country=ATA/);
    await page.getByText('No company matches these filters.').waitFor();
    await page.goBack();
    await page.getByText(`${kept.length} compan${kept.length === 1 ? 'y' : 'ies'}`, { exact: true }).waitFor();
    expect(errors).toEqual([]);
    await close();

    // On a phone the filters fold above the list.
    const phone = await open(`/companies?riskScore=${encodeURIComponent(risk)}`, 390);
    await phone.page.getByText(`${kept.length} compan${kept.length === 1 ? 'y' : 'ies'}`, { exact: true }).waitFor();
    expect(await phone.page.locator('.filters details').getAttribute('open')).toBeNull();
    await phone.page.screenshot({ path: join(SHOTS, 'companies-390.png') });
    expect(await seriousViolations(phone.page)).toEqual([]);
    await phone.close();
  });

  it.skipIf(!chromiumPresent)('names every scope the console reads with on the sign-in screen', async () => {
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console`);
    const hint = (await page.locator('.sign-in').textContent())!;
    for (const scope of ['alerts:read', 'companies:read', 'executions:read']) expect(hint).toContain(scope);
    await page.screenshot({ path: join(SHOTS, 'sign-in-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
