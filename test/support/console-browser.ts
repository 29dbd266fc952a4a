/**
 * The console's browser tests: Debian's Chromium through playwright-core over the real service
 * with the console built fresh, and axe-core run inside the page.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildConsole } from './console-build.js';
import { startTestService, type TestService } from './test-service.js';

export const CHROMIUM = '/usr/bin/chromium';
/** True when the browser is installed: the tests run. */
export const chromiumPresent = existsSync(CHROMIUM);
/** CI installs Chromium, so a missing browser there is a broken setup, not a reason to skip. */
export const chromiumMissingOnCi = !chromiumPresent && process.env.CI !== undefined && process.env.CI !== '';
/** Screenshots for a person to look at (gitignored). */
export const SHOTS = join(import.meta.dirname, '../../console/screenshots');

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Says once, outside CI, that a browser test file is skipped and why. */
export function warnIfSkipped(file: string): void {
  if (!chromiumPresent && !chromiumMissingOnCi) console.warn(`${file}: SKIPPED, ${CHROMIUM} is not installed (apt-get install chromium to run it)`);
}

/** The service serving a freshly built console, and a browser to drive it. */
export interface ConsoleUnderTest {
  service: TestService;
  browser: Browser;
  /** The built console, for a second service a test starts itself. */
  consoleDir: string;
  close(): Promise<void>;
}

/** Builds the console, starts the service over `lines` (then `prepare`, e.g. to store files), launches Chromium. */
export async function startConsole(lines: readonly string[], prepare?: (service: TestService) => Promise<void>): Promise<ConsoleUnderTest> {
  const consoleDir = await buildConsole();
  const service = await startTestService([...lines], { consoleDir });
  await prepare?.(service);
  mkdirSync(SHOTS, { recursive: true });
  // launch() gives every run a fresh temporary profile of its own; the flags keep Chromium off the network.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  return {
    service,
    browser,
    consoleDir,
    async close() {
      await browser.close();
      await service.close();
      rmSync(consoleDir, { recursive: true, force: true });
    },
  };
}

/** The one refusal the console asks for on purpose: a customer's company file, 404 for an individual customer. */
const COMPANY_FILE_PROBE = /\/v1\/companies\/[^/]+\/details$/;

/** The page's console errors as they come (a CSP refusal among them), for a test to expect none. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (m.text().includes('status of 404') && COMPANY_FILE_PROBE.test(m.location().url)) return;
    errors.push(m.text());
  });
  return errors;
}

/** Serious and critical axe violations of the page as it stands (axe runs through evaluate: no inline script for the CSP to block). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run(document)).violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length }));
  });
  return results.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes): ${v.help}`);
}

/** Violations of the named axe rules only, whatever their impact (landmark-unique and page-has-heading-one are "moderate"). */
export async function ruleViolations(page: Page, rules: readonly string[]): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (only) => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: Document, options: unknown) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    return (await axe.run(document, { runOnly: { type: 'rule', values: only } })).violations.map((v) => `${v.id} (${v.nodes.length} nodes)`);
  }, [...rules]);
}
