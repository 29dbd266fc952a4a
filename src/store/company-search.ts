/**
 * The search text of a company and of a query, normalized alike in JavaScript so both stores index
 * and match the same words: decomposed (NFKD), accents dropped, letters with a stroke and ligatures
 * spelt as their base letters, lower case, split on anything that is not a letter or a digit.
 * Identifiers also keep their compact forms (separators removed, from each word onward), so
 * "HRB 123-456" is found by "hrb123456", "123456" and "123 456".
 *
 * The search index holds each word behind its project's tag (searchTag): a project's words are
 * terms of their own, so a search reads and ranks its own project's matches only, whatever other
 * projects hold. A word's rarity counts its own project's records; SQLite's bm25 still takes the
 * number of rows and their mean length from the whole index, so ranks may move as any project grows.
 */
import { hash } from 'node:crypto';

/** Most words of one identifier that get compact forms (longer ones keep only their words). */
const MAX_COMPACT_WORDS = 16;

/**
 * Most characters of a company's name words, and of its identifier words, that are indexed:
 * PostgreSQL bounds a tsvector, and a name past this is still stored and served whole.
 */
export const MAX_SEARCH_TEXT = 32_768;

/**
 * Most UTF-16 units of one word, indexed or asked, so that with its project tag it stays within the
 * bytes PostgreSQL indexes of a word. Query words are cut alike: a word prefix matches whatever its length.
 */
export const MAX_WORD_LENGTH = 500;

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
    .filter((w) => w.length > 0)
    .map(cutWord);
}

/** `w` cut to MAX_WORD_LENGTH, never inside a surrogate pair. */
function cutWord(w: string): string {
  if (w.length <= MAX_WORD_LENGTH) return w;
  const high = w.charCodeAt(MAX_WORD_LENGTH - 1);
  return w.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_WORD_LENGTH - 1 : MAX_WORD_LENGTH);
}

/** `words` joined by spaces, as many whole words as fit in MAX_SEARCH_TEXT. */
function boundedText(words: readonly string[]): string {
  let length = -1;
  let n = 0;
  while (n < words.length && length + 1 + words[n]!.length <= MAX_SEARCH_TEXT) length += 1 + words[n++]!.length;
  return (n === words.length ? words : words.slice(0, n)).join(' ');
}

/** The words of names, space separated. */
export function nameSearchText(names: readonly string[]): string {
  return boundedText(names.flatMap(searchWords));
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
  return boundedText(out);
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
