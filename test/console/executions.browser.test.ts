/** A customer's execution timeline in headless Chromium over the real service: filters in the URL, Load more, rules in words, accessibility. */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../support/console-build.js';
import { alertLine, companyLine, executionLine } from '../support/records.js';
import { startTestService, type TestService } from '../support/test-service.js';

const CHROMIUM = '/usr/bin/chromium';
const exists = existsSync(CHROMIUM);
const inCi = process.env.CI !== undefined && process.env.CI !== '';
/** Screenshots for a person to look at (gitignored). */
const SHOTS = join(import.meta.dirname, '../../console/screenshots');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

if (!exists && !inCi) console.warn(`executions.browser.test: SKIPPED, ${CHROMIUM} is not installed (apt-get install chromium to run it)`);

const PROJECT = 'proj-timeline';
const CUSTOMER = 'c0ffee00-0000-4000-8000-000000000001';
const ALERT = 'aa5c2a4e-3d1f-4a6b-9c8d-000000000001';
const EXECUTIONS = 60;

/** Execution i of the shared template, its rule given a condition (residence in a list) and a second rule (an amount at least 15000). */
function executionWithRules(i: number): string {
  const line = JSON.parse(executionLine(PROJECT, CUSTOMER, i)) as { record: { scenario_executions: { rules: Record<string, unknown>[] }[] } };
  const rules = line.record.scenario_executions[0]!.rules;
  rules[0]!.rule_data = { attribute: { version: 'v1', schema: 'Customer', path: 'Customer/identityData/residence' }, operator: '$in', value: ['FRA', 'DEU'], type: 'IDInformation' };
  rules.push({ ...rules[0], id: `${String(rules[0]!.id)}2`, status: 'valid', rule_data: { attribute: { schema: 'Transaction', path: 'Transaction/amount/EUR' }, operator: '$gte', value: 15000 } });
  return JSON.stringify(line);
}

const LINES = [
  companyLine(PROJECT, CUSTOMER, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5b'),
  alertLine(PROJECT, ALERT, CUSTOMER, 'e1e2d3c4-b5a6-4978-8a9b-0c1d2e3f4a5c'),
  ...Array.from({ length: EXECUTIONS }, (_, i) => executionWithRules(i)),
];
const STATUS_OF = (i: number) => ['valid', 'not-valid', 'error', 'unknown'][i % 4]!;
const idOf = (i: number) => `exec-${String(i).padStart(4, '0')}`;

let service: TestService | undefined;
let browser: Browser | undefined;
let consoleDir: string | undefined;

beforeAll(async () => {
  if (!exists) return;
  consoleDir = await buildConsole();
  service = await startTestService(LINES, { consoleDir });
  mkdirSync(SHOTS, { recursive: true });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (consoleDir !== undefined) rmSync(consoleDir, { recursive: true, force: true });
});

/** Serious and critical axe violations of the page as it stands (axe runs through evaluate: the CSP stays on). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes): ${v.help}`);
}

const entryIds = (page: Page) => page.locator('.execution-head code.id').allTextContents();

describe('the execution timeline of a customer in a browser', () => {
  it.runIf(!exists && inCi)('has Chromium to run in (CI)', () => {
    expect.fail(`${CHROMIUM} is missing on CI`);
  });

  it.skipIf(!exists)('lists a customer\'s executions, filters by status through the URL, loads more, and shows a rule in words', async () => {
    const { key } = await service!.key(PROJECT);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') refused.push(m.text());
    });
    const base = `${service!.url}/console/customers/${CUSTOMER}/executions`;
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
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const rules = page.locator('.execution').first().locator('.rule');
    expect(await rules.count()).toBe(2);
    expect((await rules.nth(0).textContent())!.replace(/\s+/g, ' ')).toContain('customer.identityData.residence is one of FRA, DEU');
    expect((await rules.nth(1).textContent())!.replace(/\s+/g, ' ')).toContain('transaction.amount.EUR is at least 15,000');
    expect(await page.locator('.execution').first().textContent()).not.toContain('{');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, 'executions-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await rules.count()).toBe(0);

    // Back: the unfiltered timeline; forward: the filtered one again.
    await page.goBack();
    await page.waitForURL(base);
    expect(await page.getByRole('checkbox', { name: 'error' }).isChecked()).toBe(false);
    await expect.poll(async () => (await entryIds(page)).length).toBeGreaterThanOrEqual(50);
    await page.goForward();
    await page.waitForURL(filtered);
    await page.getByText(`${errors.length} executions`, { exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'error' }).isChecked()).toBe(true);

    expect(refused).toEqual([]);
    await context.close();
  });

  it.skipIf(!exists)('is linked from the alert view, and says when the project has no such customer', async () => {
    const { key } = await service!.key(PROJECT);
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${service!.url}/console/alerts/${ALERT}#key=${key}`);
    await page.getByRole('link', { name: 'executions' }).click();
    await page.waitForURL(`${service!.url}/console/customers/${CUSTOMER}/executions`);
    await page.getByText('50 executions shown').waitFor();

    await page.goto(`${service!.url}/console/customers/no-such-customer/executions`);
    await page.getByRole('alert').filter({ hasText: 'No customer with this id in this project.' }).waitFor();
    expect(await page.locator('.execution').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
