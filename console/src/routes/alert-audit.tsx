/** The alert's audit trail as a timeline of field changes, and its screening hits folded one by one. */
import { useState } from 'react';
import type { AuditEntry, ScreeningHit } from '../../../src/contract/index.js';
import type { FieldClass } from '../../../src/contract/field-classes.js';
import { auditDiff, type FieldChange, isText, noteInWords, truncated, valueInWords } from '../audit-diff.js';
import { Classified, instant, isMasked, Withheld } from '../format.js';
import { usePrintedAt } from '../print.js';
import { useVirtualRows } from '../virtual-rows.js';

type Hit = ScreeningHit;

/** Fields named when an alert is created: the ones an analyst triages by. */
const CREATED_FIELDS = ['name', 'status', 'severity', 'category', 'type', 'assignedTo'] as const;

/** Snapshot keys that are not the alert's own fields (a snapshot may carry the trail of its time). */
const IGNORED = new Set(['audits']);

function ownFields(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !IGNORED.has(key)));
}

/**
 * A long text cut on screen, with a button showing the whole (keyboard and screen reader reach it);
 * printed whole.
 */
function LongText({ text, quoted }: { text: string; quoted: boolean }) {
  const [open, setOpen] = useState(false);
  const printing = usePrintedAt() !== undefined;
  const whole = open || printing;
  const short = truncated(text);
  const shown = whole ? text : short;
  return (
    <>
      {quoted ? <q className="audit-value">{shown}</q> : <span className="audit-value">{shown}</span>}
      {short !== text && (
        <>
          {' '}
          <button type="button" className="more-toggle" aria-expanded={whole} onClick={() => setOpen(!open)}>
            {whole ? 'Show less' : `Show all ${text.length.toLocaleString('en')} characters`}
          </button>
        </>
      )}
    </>
  );
}

/** A value in words, cut when long (the whole a button away); a note added or removed by its name; a masked one as withheld. */
function Value({ value, path }: { value: unknown; path?: string }) {
  if (isMasked(value)) return <Withheld scope="pii" />;
  const note = path === undefined ? undefined : noteInWords(path, value);
  // A note's name or file name withheld from this key arrives as "[redacted]": said so, not quoted as a name.
  if (note !== undefined) return <span className="audit-value">{note.replaceAll('“[redacted]”', '(name withheld for this key: needs pii:read)')}</span>;
  return <LongText text={valueInWords(value)} quoted={isText(value)} />;
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
          added <Value value={change.after} path={change.path} />
        </>
      )}
      {change.kind === 'removed' && (
        <>
          removed (was <Value value={change.before} path={change.path} />)
        </>
      )}
    </li>
  );
}

export function AuditTimeline({ audits }: { audits: readonly AuditEntry[] }) {
  const rows = useVirtualRows(audits.length, 120);
  if (audits.length === 0) return <p className="muted">No audit entries.</p>;
  return (
    <ol className="audit-timeline" ref={rows.ref} style={{ paddingTop: rows.before, paddingBottom: rows.after }}>
      {rows.indexes.map((i) => (
        <AuditItem key={i} audits={audits} index={i} measure={rows.measure} />
      ))}
    </ol>
  );
}

/** One entry of the trail; its changes are worked out only when it is rendered. */
function AuditItem({ audits, index: i, measure }: { audits: readonly AuditEntry[]; index: number; measure: ((element: Element | null) => void) | undefined }) {
  const entry = audits[i]!;
  const record = ownFields(entry.record as Record<string, unknown>);
  const changes = i === 0 ? [] : auditDiff(ownFields(audits[i - 1]!.record as Record<string, unknown>), record);
  return (
    <li className="audit-entry" data-index={i} ref={measure} aria-setsize={audits.length} aria-posinset={i + 1}>
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
}

/** The values of a doc's list entries with a given tag (`country_names`), once each. */
function taggedValues(hit: Hit, tag: string): string[] {
  return [...new Set((hit.doc.fields ?? []).filter((f) => f.tag === tag).flatMap((f) => f.value.split(/,\s*/)))];
}

function HitItem({ hit, index, count, open, setOpen, measure, withheld }: { hit: Hit; index: number; count: number; open: boolean; setOpen: (open: boolean) => void; measure: ((element: Element | null) => void) | undefined; withheld: ReadonlySet<FieldClass> }) {
  const panel = `hit-detail-${index}`;
  const aliases = hit.doc.aka.map((a) => a.name).filter((n): n is string => n !== undefined && n !== '');
  const countries = taggedValues(hit, 'country_names');
  const associates = hit.doc.associates ?? [];
  // Without pii:read the lists about the person arrive empty: withheld, not none.
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : withheld.has('pii') ? <Withheld scope="pii" /> : <span className="muted">none</span>);
  const name = <Classified value={hit.doc.name} scope="pii" withheld={withheld} />;
  return (
    <li className="hit" data-index={index} ref={measure} aria-setsize={count} aria-posinset={index + 1}>
      <strong>{name}</strong> <span className="tag">{hit.match_status}</span>
      {hit.is_whitelisted && <span className="tag">whitelisted</span>} <span className="muted">score {hit.score}</span>{' '}
      <button type="button" className="hit-toggle" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> Details<span className="visually-hidden"> of {isMasked(hit.doc.name) ? `hit ${index + 1}` : hit.doc.name}</span>
      </button>
      <dl className="facts hit-detail" id={panel} hidden={!open}>
        <dt>Match status</dt>
        <dd>{hit.match_status}</dd>
        <dt>Name</dt>
        <dd>{name}</dd>
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

export function ScreeningHits({ hits, withheld }: { hits: readonly Hit[]; withheld: ReadonlySet<FieldClass> }) {
  // Which hits are unfolded, kept here: a row scrolled out of view and back keeps its state.
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const printing = usePrintedAt() !== undefined;
  const rows = useVirtualRows(hits.length, 34);
  if (hits.length === 0) return <p className="muted">No screening hits.</p>;
  const toggle = (i: number, on: boolean) => setOpen((prev) => new Set([...prev].filter((j) => j !== i).concat(on ? [i] : [])));
  return (
    <ul className="hits" ref={rows.ref} style={{ paddingTop: rows.before, paddingBottom: rows.after }}>
      {rows.indexes.map((i) => (
        <HitItem key={i} hit={hits[i]!} index={i} count={hits.length} open={printing || open.has(i)} setOpen={(on) => toggle(i, on)} measure={rows.measure} withheld={withheld} />
      ))}
    </ul>
  );
}
