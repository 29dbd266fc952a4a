/** The alert's audit timeline and screening hit details in headless Chromium over the real service: diffs in words, folded hits, accessibility. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumMissingOnCi, consoleErrors, chromiumPresent, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';
import { generateDemo } from '../../src/demo/index.js';

warnIfSkipped('alert-audit.browser.test');

const LINES = [...generateDemo({ projects: 1, companies: 6, individuals: 3, executionsPerCustomer: 0, heavyCustomerExecutions: 0, alerts: 40, largeAlertRatio: 0, extraFields: false })];
interface DemoHit {
  doc: { name: string; aka: { name?: string }[]; fields?: { tag?: string; value: string }[] };
  match_status: string;
}
interface DemoAlert {
  id: string;
  cmsProjectId: string;
  audits: { action: string; author: string | null; record: Record<string, unknown> }[];
  screeningProviderData?: { searchResult: { hits?: DemoHit[] } } | null;
}
const ALERTS = LINES.map((l) => JSON.parse(l) as { kind: string; record: DemoAlert }).filter((l) => l.kind === 'alert').map((l) => l.record);

/** The first consecutive pair of snapshots whose status differs: the change the timeline must say in words. */
function statusChange(alert: DemoAlert): { before: string; after: string } | undefined {
  for (let i = 1; i < alert.audits.length; i++) {
    const before = alert.audits[i - 1]!.record.status;
    const after = alert.audits[i]!.record.status;
    if (typeof before === 'string' && typeof after === 'string' && before !== after) return { before, after };
  }
  return undefined;
}
const hitWithDetails = (alert: DemoAlert) =>
  alert.screeningProviderData?.searchResult.hits?.findIndex((h) => h.doc.aka.some((a) => a.name) && h.doc.fields?.some((f) => f.tag === 'country_names')) ?? -1;
const ALERT = ALERTS.find((a) => a.audits.length >= 3 && statusChange(a) !== undefined && hitWithDetails(a) >= 0);

let ui: ConsoleUnderTest | undefined;

beforeAll(async () => {
  if (chromiumPresent) ui = await startConsole(LINES);
});

afterAll(async () => ui?.close());

describe('the audit timeline and screening hits of an alert in a browser', () => {
  it.runIf(chromiumMissingOnCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it('has demo data with an alert of several audit entries, a status change and a detailed hit', () => {
    expect(ALERT).toBeDefined();
  });

  it.skipIf(!chromiumPresent)('shows each audit entry with what changed in words and unfolds a hit to its aliases and countries', async () => {
    const alert = ALERT!;
    const { key } = await ui!.service.key(alert.cmsProjectId);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused = consoleErrors(page);
    await page.goto(`${ui!.service.url}/console/alerts/${alert.id}#key=${key}`);

    // One timeline entry per audit entry, oldest first, the first one saying what the alert was created as.
    const entries = page.locator('.audit-timeline > li');
    await entries.first().waitFor();
    expect(await entries.count()).toBe(alert.audits.length);
    expect(await entries.locator('.audit-head strong').allTextContents()).toEqual(alert.audits.map((a) => a.action));
    const first = await entries.first().locator('.audit-changes').textContent();
    expect(first).toContain('created');
    expect(first).toContain(`status: ${String(alert.audits[0]!.record.status)}`);

    // A status change between two snapshots reads `status: old → new`.
    const { before, after } = statusChange(alert)!;
    const lines = await page.locator('.audit-change').allTextContents();
    expect(lines).toContain(`status: ${before} → ${after}`);

    // A hit is folded behind a real button; unfolding it shows its aliases and countries.
    const index = hitWithDetails(alert);
    const hit = alert.screeningProviderData!.searchResult.hits![index]!;
    const toggle = page.locator('.hits .hit-toggle').nth(index);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const detail = page.locator(`#hit-detail-${index}`);
    expect(await detail.isVisible()).toBe(false);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await detail.waitFor({ state: 'visible' });
    const shown = (await detail.textContent()) ?? '';
    expect(shown).toContain(hit.doc.aka.find((a) => a.name)!.name);
    expect(shown).toContain(hit.doc.fields!.find((f) => f.tag === 'country_names')!.value);
    expect(shown).toContain(hit.match_status);

    await page.locator('#audit-trail').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'alert-audit-1280.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    expect(refused).toEqual([]);
    await context.close();
  });
});
