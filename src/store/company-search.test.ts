/** Search text normalization: the same words for a company and a query, whatever their case, accents and separators. */
import { describe, expect, it } from 'vitest';
import { idSearchText, nameSearchText, queryWords, searchTag, searchWords, taggedText } from './company-search.js';

describe('company search text', () => {
  it('lower-cases, drops accents and splits on anything but letters and digits', () => {
    expect(searchWords('Société Générale S.A.')).toEqual(['societe', 'generale', 's', 'a']);
    expect(searchWords('ACME-Exchange_Ltd')).toEqual(['acme', 'exchange', 'ltd']);
    expect(searchWords('İSTANBUL Ａｃｍｅ')).toEqual(['istanbul', 'acme']);
    expect(searchWords('"*:&|!()')).toEqual([]);
  });

  it('spells letters with a stroke and ligatures as their base letters, which NFKD leaves whole', () => {
    expect(searchWords('Łódź Øresund ĐAKOVO Nœud Straße Ærø Þórður Ħamrun')).toEqual(['lodz', 'oresund', 'dakovo', 'noeud', 'strasse', 'aero', 'thordur', 'hamrun']);
    expect(queryWords('lodz')).toEqual(searchWords('ŁÓDŹ'));
  });

  it('keeps every name of a company', () => {
    expect(nameSearchText(['ACME Ltd', 'Acmé Holdings'])).toBe('acme ltd acme holdings');
  });

  it('adds the compact forms of an identifier from each of its words on', () => {
    expect(idSearchText(['HRB 123-456'])).toBe('hrb 123 456 hrb123456 123456');
    expect(idSearchText(['X1'])).toBe('x1');
  });

  it('gives an identifier of very many words only its words', () => {
    const long = Array.from({ length: 40 }, (_, i) => String(i)).join('-');
    expect(idSearchText([long]).split(' ')).toHaveLength(40);
  });

  it('reads a query as distinct words, at most 32', () => {
    expect(queryWords('HRB123-456 hrb123')).toEqual(['hrb123', '456']);
    expect(queryWords(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
  });

  it("puts a project's fixed-width tag before each of its words, the same for the same project", () => {
    const tag = searchTag('proj-acme-exchange');
    expect(tag).toMatch(/^[0-9a-f]{8}$/);
    expect(searchTag('proj-acme-exchange')).toBe(tag);
    expect(searchTag('proj-northwind-bank')).not.toBe(tag);
    expect(taggedText(tag, 'acme ltd 123')).toBe(`${tag}acme ${tag}ltd ${tag}123`);
    expect(taggedText(tag, '')).toBe('');
  });
});
