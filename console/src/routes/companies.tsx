/** The company list, or the results of a company search (`?q=`), with links to each company file. */
import { ListFoot } from '../list-foot.js';
import { DataTable } from '../data-table.js';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import type { CompanySummary } from '../../../src/contract/company-summary.js';
import { useCompanyPages } from '../api.js';
import { ErrorNote, instant } from '../format.js';

/** The search of the URL: a non-blank `q` (trimmed, at most the API's 200 characters), or none. */
export function companySearchOf(search: Record<string, unknown>): { q?: string } {
  const raw = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
  return raw === '' ? {} : { q: raw };
}

const route = getRouteApi('/companies');
const column = createColumnHelper<CompanySummary>();

const COLUMNS = [
  column.accessor('companyName', {
    header: 'Company',
    cell: (c) => (
      <Link to="/companies/$companyId" params={{ companyId: c.row.original.id }} className="row-link">
        {c.getValue() ?? c.row.original.id}
      </Link>
    ),
  }),
  column.accessor('registrationNumber', { header: 'Registration no.', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('country', { header: 'Country', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('status', { header: 'Status', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('riskScore', { header: 'Risk', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('updatedAt', { header: 'Updated (UTC)', cell: (c) => <time dateTime={c.getValue() ?? undefined}>{instant(c.getValue()).replace(' UTC', '')}</time> }),
];

export function CompanyList() {
  const { q } = route.useSearch();
  const pages = useCompanyPages(q);
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel(), getRowId: (c) => c.id });
  const title = q === undefined ? 'Companies' : `Companies matching “${q}”`;
  return (
    <section className="companies" aria-labelledby="companies-title">
      <h1 id="companies-title">{title}</h1>
      <p className="muted">{q === undefined ? 'Newest update first.' : 'Best match first.'}</p>
      {pages.isError && <ErrorNote error={pages.error} />}
      <DataTable table={table} className="companies-table" labelledBy="companies-title" />
      <ListFoot pages={pages}>
        {pages.isPending
          ? 'Loading…'
          : rows.length === 0 && !pages.isError
            ? q === undefined
              ? 'No companies in this project.'
              : `No company matches “${q}”.`
            : `${rows.length} compan${rows.length === 1 ? 'y' : 'ies'}${pages.hasNextPage ? ' shown' : ''}`}
      </ListFoot>
    </section>
  );
}
