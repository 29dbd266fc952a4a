/** Small display pieces shared by the screens: instants, badges, error notes, withheld values. */
import type { ReactNode } from 'react';
import { FIELD_CLASSES, MASKS, type FieldClass } from '../../src/contract/field-classes.js';
import { describeError, isNetworkError } from './api.js';

/** A date and time that names no offset (`2024-05-01T12:00:00`): which zone it meant is not known. */
const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?$/;

/**
 * An instant as `2026-01-02 13:04 UTC`: one zone for every analyst, so notes and screenshots agree.
 * A value without an offset is shown as written and claims no zone (new Date would read it as the analyst's own).
 */
export function instant(value: string | null | undefined, precision: 'minutes' | 'seconds' = 'minutes'): string {
  if (value === null || value === undefined) return '—';
  const local = LOCAL_DATE_TIME.exec(value);
  if (local !== null) return local[2] === undefined ? local[1]! : `${local[1]} ${local[2]} (no time zone given)`;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${date.toISOString().slice(0, precision === 'minutes' ? 16 : 19).replace('T', ' ')} UTC`;
}

/** A badge whose colour class follows its value (`badge-high`, `badge-under-investigation`). */
export function Badge({ kind, value }: { kind: 'severity' | 'status'; value: string }) {
  return <span className={`badge badge-${kind} badge-${value.toLowerCase().replace(/\s+/g, '-')}`}>{value}</span>;
}

/** A failed read in words; one that never reached the service gets a Retry button. */
export function ErrorNote({ error, retry }: { error: unknown; retry?: () => unknown }) {
  return (
    <div className="error" role="alert">
      <p>{describeError(error)}</p>
      {retry !== undefined && isNetworkError(error) && (
        <button type="button" onClick={() => void retry()}>
          Retry
        </button>
      )}
    </div>
  );
}

const MASKED_STRINGS = new Set([MASKS.text, MASKS.email].map((m) => JSON.parse(m) as string));

/** True for a string the service put in place of a withheld one (`"[redacted]"`, docs/data-protection.md). */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && MASKED_STRINGS.has(value);
}

/** An alert's title: its name, or what kind of alert it is when the name is withheld from this key. */
export function alertTitle(alert: { name: string; type: string }): string {
  return isMasked(alert.name) ? `${alert.type} alert (name withheld: needs ${FIELD_CLASSES.pii.scope})` : alert.name;
}

/** Says that a value is withheld from this key and which scope shows it, never that there is none. */
export function Withheld({ what, scope }: { what?: string; scope: FieldClass }) {
  return (
    <span className="withheld">
      {what === undefined ? 'Withheld' : `${what} withheld`} for this key: needs <code>{FIELD_CLASSES[scope].scope}</code>
    </span>
  );
}

/**
 * A field of a class: the value; else, when the key lacks the class's scope, that it is withheld;
 * else `none` (the record has no value).
 */
export function Classified({ value, scope, withheld, none = '—' }: { value: ReactNode; scope: FieldClass; withheld: ReadonlySet<FieldClass>; none?: ReactNode }) {
  if (isMasked(value) || ((value === null || value === undefined) && withheld.has(scope))) return <Withheld scope={scope} />;
  return value === null || value === undefined || value === '' ? <>{none}</> : <>{value}</>;
}
