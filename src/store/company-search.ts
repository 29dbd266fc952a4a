/**
 * The search text of a company and of a query, normalized alike in JavaScript so both stores index
 * and match the same words: decomposed (NFKD), accents dropped, letters with a stroke and ligatures
 * spelt as their base letters, lower case, split on anything that is not a letter or a digit.
 * Identifiers also keep their compact forms (separators removed, from each word onward), so
 * "HRB 123-456" is found by "hrb123456", "123456" and "123 456".
 *
 * The search index holds each word behind its project's tag (searchTag): a project's words are
 * terms of their own, so a search reads and ranks its own project's matches only, whatever other
 * projects hold, and relevance counts only its own project's records.
 */
import { hash } from 'node:crypto';

/** Most words of one identifier that get compact forms (longer ones keep only their words). */
const MAX_COMPACT_WORDS = 16;

/** Letters NFKD leaves whole (a stroke is no combining mark; ligatures have no decomposition), as their base letters. */
const BASE_LETTERS: Readonly<Record<string, string>> = { ø: 'o', ł: 'l', đ: 'd', ð: 'd', ħ: 'h', ŧ: 't', ı: 'i', þ: 'th', æ: 'ae', œ: 'oe', ß: 'ss' };
const WHOLE_LETTERS = new RegExp(`[${Object.keys(BASE_LETTERS).join('')}]`, 'g');

/** The words of a text, normalized. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(WHOLE_LETTERS, (c) => BASE_LETTERS[c]!)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** The words of names, space separated. */
export function nameSearchText(names: readonly string[]): string {
  return names.flatMap(searchWords).join(' ');
}

/** The words of identifiers and their compact forms, space separated. */
export function idSearchText(ids: readonly string[]): string {
  const out: string[] = [];
  for (const id of ids) {
    const words = searchWords(id);
    out.push(...words);
    if (words.length > 1 && words.length <= MAX_COMPACT_WORDS) {
      for (let i = 0; i < words.length - 1; i++) out.push(words.slice(i).join(''));
    }
  }
  return out.join(' ');
}

/** Most words of a query that are matched (a `q` is at most 200 characters anyway). */
const MAX_QUERY_WORDS = 32;

/** The distinct words of a query, each matched as a word prefix, all required. */
export function queryWords(q: string): string[] {
  return [...new Set(searchWords(q))].slice(0, MAX_QUERY_WORDS);
}

/**
 * The fixed-width prefix of a project's words in the SQLite search index: the first 8 hex digits
 * of the SHA-256 of its id (a partition key, not a secret). PostgreSQL tags its index and queries
 * with a tag of its own, computed by the server (postgres/migrations.ts). Two projects sharing a
 * tag would share terms, never answers: every search still selects its own project's rows.
 */
export function searchTag(project: string): string {
  return hash('sha256', project, 'hex').slice(0, 8);
}

/** Each word of `text` behind `tag`, as the SQLite search index holds them (PostgreSQL's column: the same by regexp_replace). */
export function taggedText(tag: string, text: string): string {
  return text.replace(/\S+/g, (word) => tag + word);
}
