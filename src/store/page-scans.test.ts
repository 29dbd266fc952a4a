/**
 * Which pages scan: a page whose rows may lie far apart in the index it reads (a filter checked
 * entry by entry, a search, a count) is marked, so the stores keep it off the serving connection
 * (SQLite) and within its share of the pool (PostgreSQL). A bounded range is not.
 */
import { describe, expect, it } from 'vitest';
import { alertCountQuery, alertPageQuery, SQLITE_ALERT_PAGE } from './alert-page-sql.js';
import { companyPageQuery, POSTGRES_COMPANIES, SQLITE_COMPANIES } from './company-page-sql.js';
import { executionPageQuery } from './execution-page-sql.js';
import type { AlertFilter, CompanyFilter, ExecutionFilter } from './store.js';

const DAY = '2024-01-01T00:00:00.000Z';

describe('which pages scan', () => {
  it('executions: a status or rule type filter scans; dates, a scenario and a cursor are ranges', () => {
    const scans = (filter: Omit<ExecutionFilter, 'order'>, after = false): boolean =>
      executionPageQuery('p', 'c', { order: 'desc', ...filter }, after ? { sortKey: DAY, executionId: 'e' } : undefined, 51, () => '?').scans;
    expect(scans({})).toBe(false);
    expect(scans({}, true)).toBe(false);
    expect(scans({ from: DAY, to: DAY, scenarioId: 's' })).toBe(false);
    expect(scans({ statuses: [] })).toBe(false);
    expect(scans({ statuses: ['Passed'] })).toBe(true);
    expect(scans({ objectType: 'Iden3ReverseSparseMerkleTreeProof', scenarioId: 's' })).toBe(true);
  });

  it('alerts: any column but the customer and the sorted date scans, and every count does', () => {
    const scans = (filter: Omit<AlertFilter, 'order' | 'sort'>, sort: AlertFilter['sort'] = 'updatedAt'): boolean =>
      alertPageQuery('p', { order: 'desc', sort, ...filter }, undefined, 51, SQLITE_ALERT_PAGE).scans;
    expect(scans({})).toBe(false);
    expect(scans({ customerKey: 'c', updatedFrom: DAY, updatedTo: DAY })).toBe(false);
    expect(scans({ createdFrom: DAY }, 'createdAt')).toBe(false);
    expect(scans({ createdFrom: DAY })).toBe(true);
    expect(scans({ updatedTo: DAY }, 'createdAt')).toBe(true);
    expect(scans({ statuses: ['Open'] })).toBe(true);
    expect(scans({ severities: ['High'], customerKey: 'c' })).toBe(true);
    expect(scans({ categories: ['Onboarding'] })).toBe(true);
    expect(scans({ types: ['Fraud'] })).toBe(true);
    expect(scans({ assignedTo: null })).toBe(true);
    expect(scans({ assignedTo: 'someone' })).toBe(true);
    expect(scans({ seen: false })).toBe(true);
    expect(alertCountQuery('p', {}, SQLITE_ALERT_PAGE).scans).toBe(true);
  });

  it('companies: a search or a column filter scans on either store; updatedAt bounds are a range', () => {
    for (const dialect of [SQLITE_COMPANIES, POSTGRES_COMPANIES]) {
      const scans = (filter: Omit<CompanyFilter, 'order'>): boolean | undefined => companyPageQuery(dialect, 'p', { order: 'desc', ...filter }, undefined, 51)?.scans;
      expect(scans({})).toBe(false);
      expect(scans({ from: DAY, to: DAY })).toBe(false);
      expect(scans({ countries: ['FRA'] })).toBe(true);
      expect(scans({ statuses: ['Active'] })).toBe(true);
      expect(scans({ onboardingLevels: ['KYB'] })).toBe(true);
      expect(scans({ riskScores: ['High'] })).toBe(true);
      expect(scans({ q: 'acme' })).toBe(true);
      // No word to match: no query at all.
      expect(scans({ q: '--' })).toBeUndefined();
    }
  });
});
