/** The alert's audit trail as a timeline of field changes, and its screening hits folded one by one. */
import { useState } from 'react';
import type { AuditEntry, ScreeningHit } from '../../../src/contract/index.js';
import { auditDiff, type FieldChange, isText, truncated, valueInWords } from '../audit-diff.js';
import { instant } from '../format.js';

type Hit = ScreeningHit;

/** Fields named when an alert is created: the ones an analyst triages by. */
const CREATED_FIELDS = ['name', 'status', 'severity', 'category', 'type', 'assignedTo'] as const;

/** Snapshot keys that are not the alert's own fields (a snapshot may carry the trail of its time). */
const IGNORED = new Set(['audits']);

function ownFields(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !IGNORED.has(key)));
}

/** A value in words, cut when long, with the whole text kept in the title. */
function Value({ value }: { value: unknown }) {
  const words = valueInWords(value);
  const short = truncated(words);
  const title = short === words ? undefined : words;
  return isText(value) ? (
    <q className="audit-value" title={title}>
      {short}
    </q>
  ) : (
    <span className="audit-value" title={title}>
      {short}
    </span>
  );
}

function ChangeLine({ change }: { change: FieldChange }) {
  return (
    <li className={`audit-change audit-${change.kind}`}>
      <code>{change.path}</code>:{' '}
      {change.kind === 'changed' && (
        <>
          <Value value={change.before} /> → <Value value={change.after} />
        </>
      )}
      {change.kind === 'added' && (
        <>
          added <Value value={change.after} />
        </>
      )}
      {change.kind === 'removed' && (
        <>
          removed (was <Value value={change.before} />)
        </>
      )}
    </li>
  );
}

export function AuditTimeline({ audits }: { audits: readonly AuditEntry[] }) {
  if (audits.length === 0) return <p className="muted">No audit entries.</p>;
  return (
    <ol className="audit-timeline">
      {audits.map((entry, i) => {
        const record = ownFields(entry.record as Record<string, unknown>);
        const changes = i === 0 ? [] : auditDiff(ownFields(audits[i - 1]!.record as Record<string, unknown>), record);
        return (
          <li key={i} className="audit-entry">
            <p className="audit-head">
              <strong className="tag">{entry.action}</strong> by {entry.author ?? <span className="muted">unknown</span>},{' '}
              <time dateTime={entry.timestamp}>{instant(entry.timestamp)}</time>
            </p>
            {i === 0 ? (
              <ul className="audit-changes">
                <li>created</li>
                {CREATED_FIELDS.filter((field) => record[field] !== undefined).map((field) => (
                  <li key={field} className="audit-change">
                    <code>{field}</code>: <Value value={record[field]} />
                  </li>
                ))}
              </ul>
            ) : changes.length === 0 ? (
              <p className="muted">No field changed.</p>
            ) : (
              <ul className="audit-changes">
                {changes.map((change) => (
                  <ChangeLine key={change.path} change={change} />
                ))}
              </ul>
            )}
          </li>
        );
      })}
    </ol>
  );
}

/** The values of a doc's list entries with a given tag (`country_names`), once each. */
function taggedValues(hit: Hit, tag: string): string[] {
  return [...new Set((hit.doc.fields ?? []).filter((f) => f.tag === tag).flatMap((f) => f.value.split(/,\s*/)))];
}

function HitItem({ hit, index }: { hit: Hit; index: number }) {
  const [open, setOpen] = useState(false);
  const panel = `hit-detail-${index}`;
  const aliases = hit.doc.aka.map((a) => a.name).filter((n): n is string => n !== undefined && n !== '');
  const countries = taggedValues(hit, 'country_names');
  const associates = hit.doc.associates ?? [];
  const list = (items: string[]) => (items.length === 0 ? <span className="muted">none</span> : items.join(', '));
  return (
    <li className="hit">
      <strong>{hit.doc.name}</strong> <span className="tag">{hit.match_status}</span>
      {hit.is_whitelisted && <span className="tag">whitelisted</span>} <span className="muted">score {hit.score}</span>{' '}
      <button type="button" className="hit-toggle" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> Details<span className="visually-hidden"> of {hit.doc.name}</span>
      </button>
      <dl className="facts hit-detail" id={panel} hidden={!open}>
        <dt>Match status</dt>
        <dd>{hit.match_status}</dd>
        <dt>Name</dt>
        <dd>{hit.doc.name}</dd>
        <dt>Entity type</dt>
        <dd>{hit.doc.entity_type}</dd>
        <dt>Aliases</dt>
        <dd>{list(aliases)}</dd>
        <dt>Countries</dt>
        <dd>{list(countries)}</dd>
        <dt>Sources</dt>
        <dd>{list(hit.doc.sources)}</dd>
        <dt>Associates</dt>
        <dd>{list(associates.map((a) => `${a.name} (${a.association})`))}</dd>
        <dt>Listed as</dt>
        <dd>{list(hit.doc.types)}</dd>
        <dt>Last updated</dt>
        <dd>{instant(hit.doc.last_updated_utc)}</dd>
      </dl>
    </li>
  );
}

export function ScreeningHits({ hits }: { hits: readonly Hit[] }) {
  if (hits.length === 0) return <p className="muted">No screening hits.</p>;
  return (
    <ul className="hits">
      {hits.map((hit, i) => (
        <HitItem key={`${hit.doc.id}-${i}`} hit={hit} index={i} />
      ))}
    </ul>
  );
}
