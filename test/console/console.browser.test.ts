/** The analyst console in headless Chromium over the real service: sign-in by link, inbox, filters, alert view, accessibility. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumMissingOnCi, consoleErrors, chromiumPresent, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';
import { generateDemo } from '../../src/demo/index.js';
import { startTestService } from '../support/test-service.js';

warnIfSkipped('console.browser.test');

// Demo data, small: two projects of 60 alerts each (more than one page of 50), screening hits and transactions included.
const LINES = [...generateDemo({ projects: 2, companies: 6, individuals: 3, executionsPerCustomer: 0, heavyCustomerExecutions: 0, alerts: 60, largeAlertRatio: 0, extraFields: false })];
interface DemoAlert {
  id: string;
  customerId: string;
  screeningProviderData?: { searchResult: { hits?: { doc: { name: string }; match_status: string }[] } } | null;
  name: string;
  status: string;
  severity: string;
  assignedTo: string | null;
  cmsProjectId: string;
  updatedAt: string;
}
const ALL_ALERTS = LINES.map((l) => JSON.parse(l) as { kind: string; record: DemoAlert }).filter((l) => l.kind === 'alert').map((l) => l.record);
const PROJECT = ALL_ALERTS[0]!.cmsProjectId;
const ALERTS = ALL_ALERTS.filter((a) => a.cmsProjectId === PROJECT);
const COMPANIES = new Map(
  LINES.map((l) => JSON.parse(l) as { kind: string; record: { id: string; type?: string; cmsProjectId: string; companyClaims?: { companyName?: string }[] } })
    .filter((l) => l.kind === 'customer' && l.record.type === 'Company' && l.record.cmsProjectId === PROJECT)
    .map((l) => [l.record.id, l.record.companyClaims?.find((c) => c.companyName)?.companyName]),
);

let ui: ConsoleUnderTest | undefined;

beforeAll(async () => {
  if (chromiumPresent) ui = await startConsole(LINES);
});

afterAll(async () => ui?.close());

describe('the analyst console in a browser', () => {
  // CI installs Chromium, so a missing browser there is a broken setup, not a reason to skip.
  it.runIf(chromiumMissingOnCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it.skipIf(!chromiumPresent)('signs in by link, lists the project\'s alerts, filters through the URL, opens an alert and comes back', async () => {
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused = consoleErrors(page);
    await page.goto(`${ui!.service.url}/console/alerts#key=${key}`);

    // The key leaves the URL at once and lives in sessionStorage only.
    await page.waitForSelector('table.alerts tbody tr');
    expect(page.url()).toBe(`${ui!.service.url}/console/alerts`);
    expect(await page.evaluate(() => sessionStorage.getItem('compliance-console.api-key'))).toBe(key);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    // The first page holds 50 of the project's alerts, Load more the other 10 (by the Link header's cursor); none of the other project's.
    await page.getByText('50 alerts shown').waitFor();
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`${ALERTS.length} alerts`, { exact: true }).waitFor();
    const ids = await page.locator('table.alerts tbody tr .row-link').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.split('/').pop()));
    expect(ids).toEqual([...ALERTS].sort((a, b) => (a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : Date.parse(b.updatedAt) - Date.parse(a.updatedAt))).map((a) => a.id));
    await expect.poll(() => page.locator('.who strong').textContent()).toBe(PROJECT);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'inbox-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // Filtering by a status: the URL says so and the rows are that status's only.
    await page.getByRole('checkbox', { name: 'Escalated' }).check();
    await page.waitForURL(/status=Escalated/);
    const escalated = ALERTS.filter((a) => a.status === 'Escalated');
    expect(escalated.length).toBeGreaterThan(0);
    await page.getByText(`${escalated.length} alert${escalated.length === 1 ? '' : 's'}`, { exact: true }).waitFor();
    expect(new Set(await page.locator('table.alerts tbody tr .row-link').allTextContents())).toEqual(new Set(escalated.map((a) => a.name)));
    const filtered = page.url();

    // Opening an alert shows its header; back returns to the filtered inbox.
    const first = escalated[0]!;
    await page.locator(`a[href="/console/alerts/${first.id}"]`).click();
    await page.getByRole('heading', { level: 1, name: first.name }).waitFor();
    expect(page.url()).toBe(`${ui!.service.url}/console/alerts/${first.id}`);
    const facts = await page.locator('.facts').textContent();
    expect(facts).toContain(first.assignedTo ?? 'unassigned');
    expect(await page.locator('.alert-head .badge').allTextContents()).toEqual([first.severity, first.status]);
    await page.screenshot({ path: join(SHOTS, 'alert-1280.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    await page.goBack();
    await page.waitForURL(filtered);
    await page.getByText(`${escalated.length} alert${escalated.length === 1 ? '' : 's'}`, { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Escalated' }).isChecked()).toBe(true);

    // Nothing the page needed was refused (by the CSP or otherwise).
    expect(refused).toEqual([]);
    await context.close();

    // A phone: the same filtered inbox by link, filters folded above the table.
    const phone = await ui!.browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto(`${ui!.service.url}/console/alerts?status=Escalated#key=${key}`);
    await small.getByText(`${escalated.length} alert${escalated.length === 1 ? '' : 's'}`, { exact: true }).waitFor();
    expect(await small.locator('.filters details').getAttribute('open')).toBeNull();
    await small.screenshot({ path: join(SHOTS, 'inbox-390.png') });
    expect(await seriousViolations(small)).toEqual([]);
    await phone.close();
  });

  it.skipIf(!chromiumPresent)('opens an alert by its link with its screening hits, then its customer\'s company page', async () => {
    const screened = ALERTS.find((a) => (a.screeningProviderData?.searchResult.hits?.length ?? 0) > 0 && COMPANIES.has(a.customerId))!;
    expect(screened).toBeDefined();
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/alerts/${screened.id}#key=${key}`);
    await page.getByRole('heading', { level: 1, name: screened.name }).waitFor();
    const hits = screened.screeningProviderData!.searchResult.hits!;
    await page.getByRole('heading', { name: `Screening hits (${hits.length})` }).waitFor();
    expect(await page.locator('ul.hits > li > strong').allTextContents()).toEqual(hits.map((h) => h.doc.name));
    await page.screenshot({ path: join(SHOTS, 'alert-screening-1280.png') });

    await page.getByRole('link', { name: COMPANIES.get(screened.customerId)!, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: COMPANIES.get(screened.customerId)!, exact: true }).waitFor();
    expect(page.url()).toBe(`${ui!.service.url}/console/companies/${screened.customerId}`);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it.skipIf(!chromiumPresent)('sends a refused key back to sign-in with the reason, and signs out on request', async () => {
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/alerts#key=crs_aaaaaaaaaaaa_${'b'.repeat(43)}`);
    await page.getByRole('alert').filter({ hasText: 'refused this key' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'sign-in-refused.png') });
    expect(await seriousViolations(page)).toEqual([]);

    const { key } = await ui!.service.key(PROJECT);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForSelector('table.alerts tbody tr');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await context.close();
  });

  it.skipIf(!chromiumPresent)('waits out a 429 for its Retry-After and shows the inbox', async () => {
    // A budget of two requests, one more every 3 s (longer than the page takes to load): the inbox's first reads run into a 429.
    const limited = await startTestService(LINES, { consoleDir: ui!.consoleDir, rateBurst: 2, ratePerSecond: 0.3 });
    try {
      const { key } = await limited.key(PROJECT);
      const context = await ui!.browser.newContext();
      const page = await context.newPage();
      const statuses: number[] = [];
      page.on('response', (r) => {
        if (r.url().includes('/v1/alerts')) statuses.push(r.status());
      });
      // The first two requests spend the budget before the console asks for anything.
      for (let i = 0; i < 2; i++) await fetch(`${limited.url}/v1/alerts?limit=1`, { headers: { authorization: `Bearer ${key}` } });
      await page.goto(`${limited.url}/console/alerts#key=${key}`);
      await page.getByText('50 alerts shown').waitFor({ timeout: 20_000 });
      expect(statuses).toContain(429);
      // Every read refused is asked again once its Retry-After has passed (the counts may come after the list).
      await expect.poll(() => statuses.at(-1), { timeout: 15_000 }).toBe(200);
      await context.close();
    } finally {
      await limited.close();
    }
  });

  it.skipIf(!chromiumPresent)('tells a key without the alerts scope which scope it lacks', async () => {
    const { key } = await ui!.service.key(PROJECT, { scopes: ['companies:read'] });
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/alerts#key=${key}`);
    await page.getByText('This key lacks the alerts:read scope.').waitFor();
    await context.close();
  });
});
