/**
 * The console's honest states: fields a key is not shown said to be withheld (never "none"), a
 * `#key=` link opened in an open console or mangled, times without an offset, back links keeping
 * the list's search, long unbroken text, signed URLs read again before they expire, and axe's
 * landmark and heading rules on those screens. Headless Chromium over the real service.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Alert, CompanyDetails } from '../../src/contract/index.js';
import { generateDemo, sampleFileFor, type DemoDocumentRef } from '../../src/demo/index.js';
import { chromiumPresent, consoleErrors, ruleViolations, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';

warnIfSkipped('withheld-and-links.browser.test');

const DOCUMENTS: DemoDocumentRef[] = [];
const DEMO = [
  ...generateDemo({
    projects: 1, companies: 6, individuals: 3, executionsPerCustomer: 0, heavyCustomerExecutions: 0, alerts: 30, largeAlertRatio: 0, extraFields: false,
    onDocument: (doc) => DOCUMENTS.push(doc),
  }),
].map((l) => JSON.parse(l) as { kind: string; record: Record<string, unknown> });
const ALERTS = DEMO.filter((r) => r.kind === 'alert').map((r) => r.record as unknown as Alert);
const PROJECT = ALERTS[0]!.cmsProjectId;

/** An alert with screening hits, notes with documents and transactions: every withheld class shows on it. */
const FULL = ALERTS.find((a) => (a.screeningProviderData?.searchResult.hits?.length ?? 0) > 0 && a.notes?.some((n) => (n.documents?.length ?? 0) > 0)) ?? ALERTS.find((a) => a.notes?.some((n) => (n.documents?.length ?? 0) > 0))!;
const NOTE = FULL.notes!.find((n) => (n.documents?.length ?? 0) > 0)!;
/** A long run without a break: a title, a description and a note name that would widen the page. */
const UNBROKEN = 'X'.repeat(4000);
const LONG = ALERTS.find((a) => a !== FULL && a.severity === 'High') ?? ALERTS.find((a) => a !== FULL)!;
LONG.name = `Long ${'N'.repeat(600)}`;
LONG.description = UNBROKEN;
LONG.results = [
  ...(LONG.results ?? []),
  // A rule value without an offset (no zone known) and one with an offset (converted to UTC).
  { data: { ruleData: { queryId: 'q1', id: 'q1', requestId: 1, operator: '$gte', value: '2024-05-01T12:00:00', attribute: { version: 'v1', schema: 'KycSession', path: 'KycSession/vcs/IDInformation/v1/credentialSubject/entryDate' } } }, status: 'valid', cmsScenarioId: 'scn-local' },
  { data: { ruleData: { queryId: 'q2', id: 'q2', requestId: 2, operator: '$lt', value: '2024-05-01T12:00:00+02:00', attribute: { version: 'v1', schema: 'KycSession', path: 'KycSession/vcs/IDImage/v1/credentialSubject/entryDate' } } }, status: 'valid', cmsScenarioId: 'scn-offset' },
] as Alert['results'];
// The trail's last entry sets the long description: a value past 80 characters, cut on screen.
if (LONG.audits.length >= 2) LONG.audits.at(-1)!.record = { ...LONG.audits.at(-1)!.record, description: UNBROKEN };
const COMPANY = DEMO.filter((r) => r.kind === 'customer').map((r) => r.record as unknown as CompanyDetails).find(
  (c) => c.type === 'Company' && (c.beneficiaries?.individualBeneficiaries?.length ?? 0) > 0 && (c.documents?.length ?? 0) > 0 && c.riskScore != null,
)!;
COMPANY.companyClaims = (COMPANY.companyClaims ?? []).map((c, i) => (i === 0 ? { ...c, companyName: `Holding ${'H'.repeat(500)}` } : c));
const LINES = DEMO.map((r) => JSON.stringify(r));

let ui: ConsoleUnderTest | undefined;
let full: string;
/** A key with the read scopes but none of the three data scopes. */
let bare: string;

beforeAll(async () => {
  if (!chromiumPresent) return;
  ui = await startConsole(LINES, async (service) => {
    for (const doc of DOCUMENTS) await service.files.putBytes(doc.cmsProjectId, doc.objectKey, sampleFileFor(doc.mimetype).bytes);
  });
  full = (await ui.service.key(PROJECT)).key;
  bare = (await ui.service.key(PROJECT, { scopes: ['alerts:read', 'companies:read', 'executions:read'] })).key;
});
afterAll(async () => ui?.close());

async function open(path: string, key: string | undefined, options: { width?: number; timezoneId?: string } = {}): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
  const context = await ui!.browser.newContext({ viewport: { width: options.width ?? 1280, height: 900 }, timezoneId: options.timezoneId });
  const page = await context.newPage();
  const errors = consoleErrors(page);
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${ui!.service.url}/console${path}${key === undefined ? '' : `#key=${key}`}`);
  return { page, errors, close: () => context.close() };
}

const LANDMARKS = ['landmark-unique', 'page-has-heading-one', 'region', 'scrollable-region-focusable'];

describe.skipIf(!chromiumPresent)('withheld fields, key links, times, back links and long text', () => {
  it('says which scope shows each withheld section of an alert, and links no redacted document', async () => {
    const { page, errors, close } = await open(`/alerts/${FULL.id}`, bare);
    // The alert's own name is personal too: the title says what kind of alert it is.
    await page.getByRole('heading', { level: 1, name: `${FULL.type} alert (name withheld: needs pii:read)` }).waitFor();
    expect(await page.locator('section[aria-labelledby=description]').textContent()).not.toContain('No description');
    const hits = page.locator('section[aria-labelledby=hits]');
    await hits.getByText('Screening provider data withheld for this key: needs screening:read').waitFor();
    expect(await hits.textContent()).not.toContain('No screening hits');
    expect(await page.getByRole('heading', { name: 'Screening hits (withheld)' }).count()).toBe(1);
    const notes = page.locator('section[aria-labelledby=notes]');
    expect(await notes.getByText('needs pii:read').count()).toBeGreaterThan(0);
    expect(await notes.textContent()).not.toContain('[redacted]');
    // The document's URL arrived as "[redacted]": it is said to be withheld, not a link to nowhere.
    expect(await page.locator('ul.note-documents a').count()).toBe(0);
    expect(await notes.getByText('File withheld for this key: needs documents:read').count()).toBe(NOTE.documents!.length > 0 ? await page.locator('ul.note-documents li').count() : 0);
    await page.screenshot({ path: join(SHOTS, 'alert-withheld-1280.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await ruleViolations(page, LANDMARKS)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('says which scope shows a company file\'s beneficiaries and documents', async () => {
    const { page, errors, close } = await open(`/companies/${COMPANY.id}`, bare);
    await page.locator('.company-head h1').waitFor();
    const beneficiaries = page.locator('section[aria-labelledby=beneficiaries]');
    expect(await beneficiaries.getByText('Withheld for this key: needs pii:read').count()).toBeGreaterThan(0);
    const documents = page.locator('section[aria-labelledby=documents]');
    expect(await documents.textContent()).not.toContain('No file URL');
    expect(await documents.getByText('File withheld for this key: needs documents:read').count()).toBe(COMPANY.documents!.length);
    expect(await page.locator('a.doc-link').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'company-withheld-1280.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await ruleViolations(page, LANDMARKS)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('takes a #key= link opened in the open console, and refuses a mangled one on the sign-in form', async () => {
    const { page, errors, close } = await open(`/alerts/${FULL.id}`, full);
    await page.locator('ul.hits > li').first().waitFor();
    // Same document: only a hashchange. The new key replaces the old, the fragment goes, nothing read with the old key stays.
    await page.evaluate((k) => {
      window.location.hash = `key=${k}`;
    }, bare);
    await page.getByText('Screening provider data withheld for this key: needs screening:read').waitFor();
    expect(page.url()).toBe(`${ui!.service.url}/console/alerts/${FULL.id}`);
    expect(await page.evaluate(() => sessionStorage.getItem('compliance-console.api-key'))).toBe(bare);

    await page.evaluate(() => {
      window.location.hash = 'key=crs_abc%E0%A4%A';
    });
    await page.getByRole('alert').filter({ hasText: 'could not be read' }).waitFor();
    await page.getByLabel('API key').waitFor();
    expect(page.url()).toBe(`${ui!.service.url}/console/alerts/${FULL.id}`);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await close();

    // At load too: the page is the sign-in form with the reason, not blank.
    const fresh = await open('/alerts', 'crs_abc%E0%A4%A');
    await fresh.page.getByRole('alert').filter({ hasText: 'could not be read' }).waitFor();
    expect(fresh.page.url()).toBe(`${ui!.service.url}/console/alerts`);
    await fresh.page.screenshot({ path: join(SHOTS, 'sign-in-bad-fragment.png') });
    expect(await seriousViolations(fresh.page)).toEqual([]);
    expect(fresh.errors).toEqual([]);
    await fresh.close();
  });

  it('shows a time without an offset as written in every zone, one with an offset in UTC', async () => {
    const seen: string[] = [];
    for (const timezoneId of ['Asia/Tokyo', 'America/New_York']) {
      const { page, close } = await open(`/alerts/${LONG.id}`, full, { timezoneId });
      const results = page.locator('section[aria-labelledby=results]');
      await results.getByText('kycSession.vcs.IDInformation.v1.credentialSubject.entryDate').waitFor();
      const text = (await results.textContent()) ?? '';
      expect(text).toContain('is at least 2024-05-01 12:00:00 (no time zone given)');
      expect(text).toContain('is less than 2024-05-01 10:00 UTC');
      seen.push(text);
      if (timezoneId === 'Asia/Tokyo') await results.screenshot({ path: join(SHOTS, 'alert-times-tokyo.png') });
      await close();
    }
    expect(seen[0]).toBe(seen[1]);
  });

  it('goes back to the list with the search it had', async () => {
    const { page, close } = await open('/alerts?severity=High&order=asc', full);
    await page.locator('table.alerts tbody tr .row-link').first().click();
    await page.locator('.alert-head h1').waitFor();
    const back = page.getByRole('link', { name: '← Alerts' });
    expect(await back.getAttribute('href')).toBe('/console/alerts?severity=High&order=asc');
    await back.click();
    await page.waitForURL(/\/console\/alerts\?severity=High&order=asc$/);
    expect(await page.getByRole('checkbox', { name: 'High' }).isChecked()).toBe(true);

    await page.goto(`${ui!.service.url}/console/companies?riskScore=${COMPANY.riskScore}`);
    await page.locator(`a[href="/console/companies/${COMPANY.id}"]`).click();
    await page.locator('.company-head h1').waitFor();
    await page.getByRole('link', { name: '← Companies' }).click();
    await page.waitForURL(new RegExp(`/console/companies\\?riskScore=${COMPANY.riskScore!.replace(' ', '\\+')}$`));
    await close();
  });

  it('wraps long unbroken text rather than widening the page, keeping the tables\' columns in view', async () => {
    for (const [path, name] of [[`/alerts/${LONG.id}`, 'alert-long-text'], ['/alerts', 'inbox-long-text'], [`/companies/${COMPANY.id}`, 'company-long-text'], ['/companies', 'companies-long-text']] as const) {
      const { page, close } = await open(path, full);
      await page.locator('main h1').first().waitFor();
      await page.locator('main table, main .alert-head, main .company-head').first().waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(1280);
      // Every column's header is within the window.
      const rights = await page.locator('main th').evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().right));
      for (const right of rights) expect(right, path).toBeLessThanOrEqual(1280);
      await page.screenshot({ path: join(SHOTS, `${name}-1280.png`) });
      expect(await ruleViolations(page, LANDMARKS)).toEqual([]);
      await close();
    }
  });

  it('reaches the whole of a long audit value by keyboard, and prints it whole', async () => {
    expect(LONG.audits.length).toBeGreaterThanOrEqual(2);
    const { page, close } = await open(`/alerts/${LONG.id}`, full);
    const more = page.getByRole('button', { name: 'Show all 4,000 characters' });
    await more.waitFor();
    const trail = page.locator('ol.audit-timeline');
    expect(await trail.textContent()).not.toContain(UNBROKEN);
    await more.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await trail.textContent()).toContain(UNBROKEN);
    expect(await page.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Enter');
    await more.waitFor();
    // Keyboard focus: the ring is the accent blue, 3:1 or more against the page.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineColor)).toBe('rgb(11, 92, 173)');
    await more.evaluate((b) => b.closest('li')!.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: join(SHOTS, 'audit-long-value-focus.png') });
    await page.emulateMedia({ media: 'print' });
    await expect.poll(() => trail.textContent()).toContain(UNBROKEN);
    await page.emulateMedia({ media: 'screen' });
    await close();
  });

  it('has one heading-one and unique landmarks on a missing alert, with no count under a list\'s error', async () => {
    const { page, close } = await open('/alerts/00000000-0000-4000-8000-000000000000', full);
    await page.getByText('Not in this project').waitFor();
    expect(await ruleViolations(page, LANDMARKS)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'alert-404.png') });

    // The service gone: an error, a Retry, and no "0 alerts".
    await page.route('**/v1/alerts?**', (route) => route.abort('connectionrefused'));
    await page.goto(`${ui!.service.url}/console/alerts?seen=false`);
    await page.getByRole('button', { name: 'Retry' }).waitFor();
    expect(await page.locator('.list-foot').textContent()).not.toMatch(/\d+ alert/);
    await page.screenshot({ path: join(SHOTS, 'inbox-unreachable.png') });
    await page.unroute('**/v1/alerts?**');
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('table.alerts tbody tr').first().waitFor();
    await close();
  });

  it('reads a company again before its signed document URLs expire', async () => {
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.clock.install();
    let reads = 0;
    page.on('request', (r) => {
      if (r.url().endsWith(`/v1/companies/${COMPANY.id}/details`)) reads++;
    });
    await page.goto(`${ui!.service.url}/console/companies/${COMPANY.id}#key=${full}`);
    await page.locator('a.doc-link').first().waitFor();
    const first = reads;
    // The service signs for 900 s: 15 minutes on, the page has asked for fresh URLs.
    await page.clock.fastForward('15:00');
    await expect.poll(() => reads).toBeGreaterThan(first);
    await context.close();
  });
});
