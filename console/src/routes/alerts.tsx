/** The alert inbox: filters held in the URL, a table of summaries, more pages by the Link header's cursor. */
import { ListFoot } from '../list-foot.js';
import { DataTable } from '../data-table.js';
import { SelectField } from '../select-field.js';
import { CheckGroup } from '../check-group.js';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, useState, type ReactNode } from 'react';
import { ALERT_CATEGORIES, ALERT_SEVERITIES, ALERT_STATUSES, ALERT_TYPES, type AlertStatus } from '../../../src/contract/enums.js';
import type { AlertSummary } from '../../../src/contract/alert-summary.js';
import { useAlertCounts, useAlertPages, type AlertFilters } from '../api.js';
import { alertTitle, Badge, ErrorNote, instant } from '../format.js';

type Multi = 'status' | 'severity' | 'category' | 'type';
const CHOICES: Record<Multi, readonly string[]> = { status: ALERT_STATUSES, severity: ALERT_SEVERITIES, category: ALERT_CATEGORIES, type: ALERT_TYPES };
const LABELS: Record<Multi, string> = { status: 'Status', severity: 'Severity', category: 'Category', type: 'Type' };

/** The inbox filters of a URL's search params; unknown values are dropped rather than sent to be refused. */
export function inboxFiltersOf(search: Record<string, unknown>): AlertFilters {
  const list = (name: Multi) => {
    const raw = search[name];
    const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String).filter((v) => CHOICES[name].includes(v));
    return values.length === 0 ? undefined : values;
  };
  const one = <T extends string>(name: string, allowed?: readonly T[]): T | undefined => {
    const raw = search[name];
    const value = typeof raw === 'string' && raw !== '' ? raw : undefined;
    return value !== undefined && (allowed === undefined || allowed.includes(value as T)) ? (value as T) : undefined;
  };
  return {
    status: list('status') as AlertFilters['status'],
    severity: list('severity') as AlertFilters['severity'],
    category: list('category') as AlertFilters['category'],
    type: list('type') as AlertFilters['type'],
    assignedTo: one('assignedTo'),
    seen: one('seen', ['true', 'false'] as const),
    sort: one('sort', ['updatedAt', 'createdAt'] as const),
    order: one('order', ['desc', 'asc'] as const),
  };
}

const inbox = getRouteApi('/alerts');
const column = createColumnHelper<AlertSummary>();

/** An alert's row link; it leaves the inbox's search in the history entry, so the alert's back link returns to this list. */
function AlertLink({ alert }: { alert: AlertSummary }) {
  const search = inbox.useSearch();
  return (
    <Link to="/alerts/$alertId" params={{ alertId: alert.id }} state={(prev) => ({ ...prev, inboxSearch: { ...search } })} className="row-link">
      {alertTitle(alert)}
    </Link>
  );
}

const COLUMNS = [
  column.accessor('severity', { header: 'Severity', cell: (c) => <Badge kind="severity" value={c.getValue()} /> }),
  column.accessor('status', { header: 'Status', cell: (c) => <Badge kind="status" value={c.getValue()} /> }),
  column.accessor('name', { header: 'Alert', cell: (c) => <AlertLink alert={c.row.original} /> }),
  column.accessor('customerId', {
    header: 'Customer',
    cell: (c) => (
      <code className="id" title={c.getValue()}>
        {`${c.getValue().slice(0, 8)}…`}
      </code>
    ),
    meta: { className: 'wide-only' },
  }),
  column.accessor('assignedTo', {
    header: 'Assignee',
    cell: (c) => {
      const who = c.getValue();
      return who === null ? <span className="muted">unassigned</span> : <span title={who}>{who}</span>;
    },
    meta: { className: 'assignee' },
  }),
  column.accessor('seen', { header: 'Seen', cell: (c) => (c.getValue() ? 'Seen' : <strong>New</strong>), meta: { className: 'wide-only' } }),
  // The zone on every time, not only in the header: a phone's card layout shows no header.
  column.accessor('createdAt', { header: 'Created', cell: (c) => <time dateTime={c.getValue()}>{instant(c.getValue())}</time>, meta: { className: 'updated' } }),
  column.accessor('updatedAt', { header: 'Updated', cell: (c) => <time dateTime={c.getValue()}>{instant(c.getValue())}</time>, meta: { className: 'updated' } }),
];

export function Inbox() {
  const filters = inbox.useSearch();
  const pages = useAlertPages(filters);
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  // Sorted by creation, the list shows when each alert was created, in place of its last update.
  const byCreation = filters.sort === 'createdAt';
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (a) => a.id,
    state: { columnVisibility: { createdAt: byCreation, updatedAt: !byCreation } },
  });

  return (
    <div className="inbox">
      <Filters filters={filters} />
      <section className="results" id="content" tabIndex={-1} aria-labelledby="inbox-title">
        <h1 id="inbox-title">Alerts</h1>
        <StatusCounts filters={filters} />
        {pages.isError && <ErrorNote error={pages.error} retry={pages.refetch} />}
        <DataTable table={table} className="alerts" labelledBy="inbox-title" rowClassName={(alert) => (alert.seen ? undefined : 'unseen')} />
        <ListFoot pages={pages}>
          {pages.isPending || (pages.isError && rows.length === 0) ? (pages.isFetching ? 'Loading…' : '') : `${rows.length} alert${rows.length === 1 ? '' : 's'}${pages.hasNextPage ? ' shown' : ''}`}
        </ListFoot>
      </section>
    </div>
  );
}

/** The filter controls: each change navigates, so the URL (and back/forward) holds every filter. */
function Filters({ filters }: { filters: AlertFilters }) {
  const navigate = inbox.useNavigate();
  // Open beside the table on a wide screen; folded above it on a phone, where it would fill the first screen.
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 761px)').matches);
  const active = Object.entries(filters).filter(([name, v]) => v !== undefined && name !== 'sort' && name !== 'order').length;
  const set = (patch: Partial<AlertFilters>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) });
  const select = (label: string, id: string, value: string | undefined, options: [string, string][], onChange: (v: string | undefined) => void): ReactNode => (
    <SelectField label={label} id={id} value={value} options={options} onChange={onChange} />
  );

  return (
    <aside className="filters" aria-label="Filters">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Filters{active > 0 && ` (${active} active)`}</summary>
        {(Object.keys(CHOICES) as Multi[]).map((name) => (
          <CheckGroup key={name} legend={LABELS[name]} choices={CHOICES[name]} checked={filters[name] as readonly string[] | undefined} onChange={(next) => set({ [name]: next })} />
        ))}
        <div className="field">
          <label htmlFor="assigned-to">Assigned to</label>
          <input
            id="assigned-to"
            key={filters.assignedTo ?? ''}
            defaultValue={filters.assignedTo ?? ''}
            placeholder="anyone"
            aria-describedby="assigned-to-hint"
            onBlur={(e) => set({ assignedTo: e.target.value.trim() || undefined })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') set({ assignedTo: e.currentTarget.value.trim() || undefined });
            }}
          />
          <small id="assigned-to-hint" className="muted">
            An assignee, or <code>none</code> for unassigned; Enter applies.
          </small>
        </div>
        {select('Seen', 'seen', filters.seen, [['', 'Seen or not'], ['false', 'Not seen'], ['true', 'Seen']], (v) => set({ seen: v as AlertFilters['seen'] }))}
        {select('Sort by', 'sort', filters.sort, [['', 'Last update'], ['createdAt', 'Creation']], (v) => set({ sort: v as AlertFilters['sort'] }))}
        {select('Order', 'order', filters.order, [['', 'Newest first'], ['asc', 'Oldest first']], (v) => set({ order: v as AlertFilters['order'] }))}
      </details>
    </aside>
  );
}

/**
 * How many alerts each status holds under the other filters (GET /alerts/counts); each count links
 * to the inbox narrowed to that status, "All" to every status.
 */
function StatusCounts({ filters }: { filters: AlertFilters }) {
  const { status: _status, sort: _sort, order: _order, ...rest } = filters;
  const counts = useAlertCounts(rest);
  if (counts.data === undefined) return <p className="status-counts muted">{counts.isError ? 'Counts unavailable.' : 'Counting…'}</p>;
  const chosen = filters.status ?? [];
  const only = (status: AlertStatus | undefined): AlertFilters => ({ ...filters, status: status === undefined ? undefined : [status] });
  return (
    <nav className="status-counts" aria-label="Alerts by status">
      <ul>
        <li>
          <Link to="/alerts" search={only(undefined)} aria-current={chosen.length === 0 ? 'true' : undefined}>
            All <strong>{counts.data.total}</strong>
          </Link>
        </li>
        {ALERT_STATUSES.map((status) => (
          <li key={status}>
            <Link to="/alerts" search={only(status)} aria-current={chosen.length === 1 && chosen[0] === status ? 'true' : undefined}>
              {status} <strong>{counts.data.byStatus[status]}</strong>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
