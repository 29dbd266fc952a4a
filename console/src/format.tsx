/** Small display pieces shared by the screens: instants, badges, error notes. */
import { describeError } from './api.js';

/** An instant as `2026-01-02 13:04 UTC`: one zone for every analyst, so notes and screenshots agree. */
export function instant(value: string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A badge whose colour class follows its value (`badge-high`, `badge-under-investigation`). */
export function Badge({ kind, value }: { kind: 'severity' | 'status'; value: string }) {
  return <span className={`badge badge-${kind} badge-${value.toLowerCase().replace(/\s+/g, '-')}`}>{value}</span>;
}

export function ErrorNote({ error }: { error: unknown }) {
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}
