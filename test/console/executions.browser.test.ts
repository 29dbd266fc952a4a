/** A customer's execution timeline in headless Chromium over the real service: filters in the URL, Load more, rules in words, accessibility. */
import { join } from 'node:path';
import { type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumMissingOnCi, consoleErrors, chromiumPresent, SHOTS, seriousViolations, startConsole, warnIfSkipped, type ConsoleUnderTest } from '../support/console-browser.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';

warnIfSkipped('executions.browser.test');

const PROJECT = 'proj-timeline';
const CUSTOMER = 'c0ffee00-0000-4000-8000-000000000001';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-000000000001';
const EXECUTIONS = 60;

/** Execution i of the shared template, its rule given a condition (residence in a list) and five more: a number, an instant, a boolean, a presence, no rule data. */
function executionWithRules(i: number): string {
  const line = JSON.parse(executionLine(PROJECT, CUSTOMER, i)) as { record: { scenario_executions: { rules: Record<string, unknown>[] }[] } };
  const rules = line.record.scenario_executions[0]!.rules;
  rules[0]!.rule_data = { attribute: { version: 'v1', schema: 'Customer', path: 'Customer/identityData/residence' }, operator: '$in', value: ['FRA', 'DEU'], type: 'IDInformation' };
  const more = (n: number, status: string, ruleData: unknown) => ({ ...rules[0], id: `${String(rules[0]!.id)}${n}`, status, rule_data: ruleData });
  rules.push(
    more(2, 'valid', { attribute: { schema: 'Transaction', path: 'Transaction/amount/EUR' }, operator: '$gte', value: 15000 }),
    more(3, 'valid', { attribute: { schema: 'Transaction', path: 'Transaction/event/transactionDate' }, operator: '$lt', value: '2024-06-30T12:00:00+02:00' }),
    more(4, 'not-valid', { attribute: { schema: 'Customer', path: 'Customer/duplicates/hasDuplicates' }, operator: '$eq', value: false }),
    more(5, 'unknown', { attribute: { schema: 'Customer', path: 'Customer/identityData/email' }, operator: '$exists', value: true }),
    more(6, 'unknown', null),
  );
  return JSON.stringify(line);
}

const LINES = [
  companyLine(PROJECT, CUSTOMER, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'),
  alertLine(PROJECT, ALERT, CUSTOMER, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5c'),
  ...Array.from({ length: EXECUTIONS }, (_, i) => executionWithRules(i)),
];
const STATUS_OF = (i: number) => ['valid', 'not-valid', 'error', 'unknown'][i % 4]!;
const idOf = (i: number) => `exec-${String(i).padStart(4, '0')}`;

let ui: ConsoleUnderTest | undefined;

beforeAll(async () => {
  if (chromiumPresent) ui = await startConsole(LINES);
});

afterAll(async () => ui?.close());

const entryIds = (page: Page) => page.locator('.execution-head code.id').allTextContents();

describe('the execution timeline of a customer in a browser', () => {
  it.runIf(chromiumMissingOnCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it.skipIf(!chromiumPresent)('lists a customer\'s executions, filters by status through the URL, loads more, and shows a rule in words', async () => {
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused = consoleErrors(page);
    const base = `${ui!.service.url}/console/customers/${CUSTOMER}/executions`;
    await page.goto(`${base}#key=${key}`);

    // A first page of 50, newest first (the latest minute of the template is 00:29 UTC), then Load more for the other 10.
    await page.getByText('50 executions shown').waitFor();
    expect(page.url()).toBe(base);
    expect(await page.locator('.execution-head time').first().textContent()).toBe('2024-01-01 00:29 UTC');
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText(`${EXECUTIONS} executions`, { exact: true }).waitFor();
    expect(new Set(await entryIds(page))).toEqual(new Set(Array.from({ length: EXECUTIONS }, (_, i) => idOf(i))));
    const times = await page.locator('.execution-head time').evaluateAll((ts) => ts.map((t) => Date.parse(t.getAttribute('datetime')!)));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A status filter: the URL says so and only that status's executions remain.
    await page.getByRole('checkbox', { name: 'error' }).check();
    await page.waitForURL(/status=error/);
    const errors = Array.from({ length: EXECUTIONS }, (_, i) => i).filter((i) => STATUS_OF(i) === 'error');
    await page.getByText(`${errors.length} executions`, { exact: true }).waitFor();
    expect(new Set(await entryIds(page))).toEqual(new Set(errors.map(idOf)));
    expect(new Set(await page.locator('.execution-head .badge').allTextContents())).toEqual(new Set(['error']));
    const filtered = page.url();

    // Expanding an execution from the keyboard: its scenario and its rules, the attribute path readable, the values formatted.
    const toggle = page.locator('.execution').first().getByRole('button');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const rules = page.locator('.execution').first().locator('.rule');
    await rules.first().waitFor();
    const words = (await rules.allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(words).toEqual([
      'error customer.identityData.residence is one of FRA, DEU object type OffChainZKPdata type IDInformation',
      'valid transaction.amount.EUR is at least 15,000 object type OffChainZKP',
      'valid transaction.event.transactionDate is less than 2024-06-30 10:00 UTC object type OffChainZKP',
      'not-valid customer.duplicates.hasDuplicates is false object type OffChainZKP',
      'unknown customer.identityData.email is present object type OffChainZKP',
      'unknown no rule data object type OffChainZKP',
    ]);
    expect(await page.locator('.execution').first().textContent()).not.toContain('{');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'executions-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => rules.count()).toBe(0);

    // Back: the unfiltered timeline; forward: the filtered one again.
    await page.goBack();
    await page.waitForURL(base);
    expect(await page.getByRole('checkbox', { name: 'error' }).isChecked()).toBe(false);
    await expect.poll(async () => (await entryIds(page)).length).toBeGreaterThanOrEqual(50);
    await page.goForward();
    await page.waitForURL(filtered);
    await page.getByText(`${errors.length} executions`, { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'error' }).isChecked()).toBe(true);

    // The other filters: a scenario typed in (Enter applies), an object type chosen; each lands in the URL and narrows the rows.
    await page.getByRole('checkbox', { name: 'error' }).uncheck();
    await page.getByLabel('Scenario').fill('scenario-1');
    await page.getByLabel('Scenario').press('Enter');
    await page.waitForURL(/scenarioId=scenario-1/);
    const inScenario = Array.from({ length: EXECUTIONS }, (_, i) => i).filter((i) => i % 3 === 1);
    await page.getByText(`${inScenario.length} executions`, { exact: true }).waitFor();
    expect(new Set(await entryIds(page))).toEqual(new Set(inScenario.map(idOf)));
    await page.getByLabel('Object type').selectOption('TFHE');
    await page.waitForURL(/objectType=TFHE/);
    const tfhe = inScenario.filter((i) => i % 6 === 3);
    await page.getByText(`${tfhe.length} execution${tfhe.length === 1 ? '' : 's'}`, { exact: true }).waitFor();
    expect(new Set(await entryIds(page))).toEqual(new Set(tfhe.map(idOf)));

    // A day range: from the next day on, nothing; the filter is in the URL and the timeline says so.
    await page.getByLabel('From (UTC day, inclusive)').fill('2024-01-02');
    await page.waitForURL(/from=2024-01-02/);
    await page.getByText('No executions of this customer match these filters.').waitFor();
    expect(await page.locator('.execution').count()).toBe(0);

    expect(refused).toEqual([]);
    await context.close();

    // A phone: the filtered timeline by link, filters folded above it, an execution expanded.
    const phone = await ui!.browser.newContext({ viewport: { width: 390, height: 844 } });
    const small = await phone.newPage();
    await small.goto(`${filtered}#key=${key}`);
    await small.getByText(`${errors.length} executions`, { exact: true }).waitFor();
    expect(await small.locator('.filters details').getAttribute('open')).toBeNull();
    await small.locator('.execution').first().getByRole('button').click();
    await small.screenshot({ path: join(SHOTS, 'executions-390.png') });
    expect(await seriousViolations(small)).toEqual([]);
    await phone.close();
  });

  it.skipIf(!chromiumPresent)('is linked from the alert view, and says when the project has no such customer', async () => {
    const { key } = await ui!.service.key(PROJECT);
    const context = await ui!.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/alerts/${ALERT}#key=${key}`);
    await page.locator('.alert-head').getByRole('link', { name: 'executions' }).click();
    await page.waitForURL(`${ui!.service.url}/console/customers/${CUSTOMER}/executions`);
    await page.getByText('50 executions shown').waitFor();

    await page.goto(`${ui!.service.url}/console/customers/no-such-customer/executions`);
    await page.getByRole('alert').filter({ hasText: 'No customer with this id in this project.' }).waitFor();
    expect(await page.locator('.execution').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it.skipIf(!chromiumPresent)('tells a key without the executions scope which scope it lacks', async () => {
    const { key } = await ui!.service.key(PROJECT, { scopes: ['alerts:read'] });
    const context = await ui!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${ui!.service.url}/console/customers/${CUSTOMER}/executions#key=${key}`);
    await page.getByText('This key lacks the executions:read scope.').waitFor();
    expect(await page.locator('.execution').count()).toBe(0);
    await context.close();
  });
});
