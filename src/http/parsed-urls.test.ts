import { describe, expect, it } from 'vitest';
import { ServiceError } from '../contract/error-codes.js';
import { OPERATIONS } from '../contract/operations.js';
import { listFilterOf } from './list-query.js';
import { parametersOf } from './parsed-urls.js';

describe('parametersOf', () => {
  it('gives the same frozen parameters for a URL asked again, and fresh ones for another URL', () => {
    const url = '/v1/alerts?status=Open&status=Pending&limit=20';
    const first = parametersOf(OPERATIONS.listAlerts, {}, url);
    expect(first.query).toEqual({ status: ['Open', 'Pending'], limit: 20 });
    expect(parametersOf(OPERATIONS.listAlerts, {}, url)).toBe(first);
    expect(Object.isFrozen(first.query) && Object.isFrozen(first.query.status)).toBe(true);
    expect(() => (first.query.status as string[]).push('Closed')).toThrow(TypeError);
    const other = parametersOf(OPERATIONS.listAlerts, {}, `${url}&seen=true`);
    expect(other).not.toBe(first);
    expect(other.query.seen).toBe('true');
  });

  it('keeps the URLs of one operation apart from another operation', () => {
    const url = '/v1/companies?limit=5';
    const companies = parametersOf(OPERATIONS.listCompanies, {}, url);
    expect(() => parametersOf(OPERATIONS.listChanges, {}, url)).not.toThrow();
    expect(parametersOf(OPERATIONS.listChanges, {}, url)).not.toBe(companies);
  });

  it('refuses a bad URL every time it is asked', () => {
    const url = '/v1/alerts?limit=0';
    for (let i = 0; i < 2; i++) expect(() => parametersOf(OPERATIONS.listAlerts, {}, url)).toThrow(ServiceError);
  });
});

describe('listFilterOf', () => {
  it('makes a filter once per parameters object, frozen, with its JSON', () => {
    const params = parametersOf(OPERATIONS.listAlerts, {}, '/v1/alerts?status=Open&limit=3');
    let made = 0;
    const make = (): { statuses: string[] } => {
      made++;
      return { statuses: ['Open'] };
    };
    const a = listFilterOf(params, make);
    const b = listFilterOf(params, make);
    expect(made).toBe(1);
    expect(b).toBe(a);
    expect(a.json).toBe('{"statuses":["Open"]}');
    expect(Object.isFrozen(a.filter) && Object.isFrozen(a.filter.statuses)).toBe(true);
  });
});
