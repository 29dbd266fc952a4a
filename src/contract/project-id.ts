/** The project id (cmsProjectId): the token that scopes every record, API key and access log entry. */

/** Longest project id accepted. */
export const MAX_PROJECT_ID_LENGTH = 256;

// Control characters (C0, DEL, C1), invisible format characters (bidi overrides, zero-width) and
// line or paragraph separators: each can forge or hide text where a project id is printed.
export const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Why `value` is not a usable project id, or undefined when it is one. */
export function projectIdProblem(value: string): string | undefined {
  if (value.length === 0) return 'must be a non-empty project id';
  if (value.length > MAX_PROJECT_ID_LENGTH) return `must be a project id of at most ${MAX_PROJECT_ID_LENGTH} characters`;
  if (UNPRINTABLE.test(value)) return 'must be a project id without control or invisible format characters';
  if (value.trim() !== value) return 'must be a project id without leading or trailing white space';
  return undefined;
}
