/**
 * The search text of a company and of a query, normalized alike in JavaScript so both stores index
 * and match the same words: decomposed (NFKD), accents dropped, lower case, split on anything that
 * is not a letter or a digit. Identifiers also keep their compact forms (separators removed, from
 * each word onward), so "HRB 123-456" is found by "hrb123456", "123456" and "123 456".
 */

/** Most words of one identifier that get compact forms (longer ones keep only their words). */
const MAX_COMPACT_WORDS = 16;

/** The words of a text, normalized. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
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
