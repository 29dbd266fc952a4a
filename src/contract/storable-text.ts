/**
 * Characters no store can hold as text: NUL (PostgreSQL text refuses it) and unpaired UTF-16
 * surrogates (UTF-8 has no form for them). Request parameters holding them are refused, and
 * values kept regardless (the access log records refused requests too) have them replaced.
 */

// With the u flag a paired surrogate is one astral code point, so only lone halves match.
const UNSTORABLE = /[\0\p{Surrogate}]/u;
const UNSTORABLE_ALL = /[\0\p{Surrogate}]/gu;

/** What a parameter holding such a character is told. */
export const UNSTORABLE_MESSAGE = 'must not contain NUL (U+0000) or unpaired surrogate characters';

/** True when `s` holds no NUL and no unpaired surrogate. */
export function isStorableText(s: string): boolean {
  return !UNSTORABLE.test(s);
}

/** `s` with each NUL and unpaired surrogate replaced by U+FFFD; `s` itself when there are none. */
export function storableText(s: string): string {
  return UNSTORABLE.test(s) ? s.replace(UNSTORABLE_ALL, '\uFFFD') : s;
}
