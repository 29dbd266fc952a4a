/** The company list, or the results of a company search (`?q=`), with links to each company file. */
import { ListFoot } from '../list-foot.js';
import { DataTable } from '../data-table.js';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { COUNTRY_ALPHA3_CODES, CUSTOMER_STATUSES, ONBOARDING_LEVELS, RISK_SCORES } from '../../../src/contract/enums.js';
import { CheckGroup } from '../check-group.js';
import { SelectField } from '../select-field.js';
import type { CompanySummary } from '../../../src/contract/company-summary.js';
import { useCompanyPages, type CompanyFilters } from '../api.js';
import { ErrorNote, instant } from '../format.js';

type Multi = 'status' | 'onboardingLevel' | 'riskScore';
const CHOICES: Record<Multi, readonly string[]> = { status: CUSTOMER_STATUSES, onboardingLevel: ONBOARDING_LEVELS, riskScore: RISK_SCORES };
const LABELS: Record<Multi, string> = { status: 'Status', onboardingLevel: 'Onboarding level', riskScore: 'Risk score' };

/**
 * The search and filters of the URL: a non-blank `q` (trimmed, at most the API's 200 characters),
 * and the filters' known values; unknown values are dropped rather than sent to be refused.
 */
export function companySearchOf(search: Record<string, unknown>): CompanyFilters {
  const raw = typeof search.q === 'string' ? search.q.trim().slice(0, 200) : '';
  const list = (name: Multi | 'country', allowed: readonly string[]) => {
    const value = search[name];
    const values = (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String).filter((v) => allowed.includes(v));
    return values.length === 0 ? undefined : values;
  };
  const filters: CompanyFilters = {
    status: list('status', CUSTOMER_STATUSES) as CompanyFilters['status'],
    onboardingLevel: list('onboardingLevel', ONBOARDING_LEVELS) as CompanyFilters['onboardingLevel'],
    riskScore: list('riskScore', RISK_SCORES) as CompanyFilters['riskScore'],
    country: list('country', COUNTRY_ALPHA3_CODES)?.slice(0, 1),
  };
  return raw === '' ? filters : { q: raw, ...filters };
}

const route = getRouteApi('/companies');
const column = createColumnHelper<CompanySummary>();

/** A company's row link; it leaves the list's search in the history entry, so the company's back link returns to this list. */
function CompanyLink({ company }: { company: CompanySummary }) {
  const search = route.useSearch();
  return (
    <Link to="/companies/$companyId" params={{ companyId: company.id }} state={(prev) => ({ ...prev, companiesSearch: { ...search } })} className="row-link">
      {company.companyName ?? company.id}
    </Link>
  );
}

const COLUMNS = [
  column.accessor('companyName', { header: 'Company', cell: (c) => <CompanyLink company={c.row.original} /> }),
  column.accessor('registrationNumber', { header: 'Registration no.', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('country', { header: 'Country', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('status', { header: 'Status', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('riskScore', { header: 'Risk', cell: (c) => c.getValue() ?? '—' }),
  column.accessor('updatedAt', { header: 'Updated', cell: (c) => <time dateTime={c.getValue() ?? undefined}>{instant(c.getValue())}</time> }),
];

export function CompanyList() {
  const filters = route.useSearch();
  const { q } = filters;
  const pages = useCompanyPages(filters);
  const rows = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  const table = useReactTable({ data: rows, columns: COLUMNS, getCoreRowModel: getCoreRowModel(), getRowId: (c) => c.id });
  const title = q === undefined ? 'Companies' : `Companies matching “${q}”`;
  const filtered = Object.entries(filters).some(([name, v]) => name !== 'q' && v !== undefined);
  return (
    <div className="inbox">
      <CompanyFilterControls filters={filters} />
      <section className="companies" id="content" tabIndex={-1} aria-labelledby="companies-title">
        <h1 id="companies-title">{title}</h1>
        <p className="muted">{q === undefined ? 'Newest update first.' : 'Best match first.'}</p>
        {pages.isError && <ErrorNote error={pages.error} retry={pages.refetch} />}
        <DataTable table={table} className="companies-table" labelledBy="companies-title" />
        <ListFoot pages={pages}>
          {pages.isPending || (pages.isError && rows.length === 0)
            ? pages.isFetching
              ? 'Loading…'
              : ''
            : rows.length === 0
              ? q !== undefined
                ? `No company matches “${q}”${filtered ? ' with these filters' : ''}.`
                : filtered
                  ? 'No company matches these filters.'
                  : 'No companies in this project.'
              : `${rows.length} compan${rows.length === 1 ? 'y' : 'ies'}${pages.hasNextPage ? ' shown' : ''}`}
        </ListFoot>
      </section>
    </div>
  );
}

/** The filter controls: each change navigates, so the URL (and back/forward) holds every filter, the search kept. */
function CompanyFilterControls({ filters }: { filters: CompanyFilters }) {
  const navigate = route.useNavigate();
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 761px)').matches);
  const active = (Object.keys(filters) as (keyof CompanyFilters)[]).filter((name) => name !== 'q' && filters[name] !== undefined).length;
  const set = (patch: Partial<CompanyFilters>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) });
  return (
    <aside className="filters" aria-label="Filters">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Filters{active > 0 && ` (${active} active)`}</summary>
        {(Object.keys(CHOICES) as Multi[]).map((name) => (
          <CheckGroup key={name} legend={LABELS[name]} choices={CHOICES[name]} checked={filters[name] as readonly string[] | undefined} onChange={(next) => set({ [name]: next })} />
        ))}
        <SelectField
          label="Country"
          id="country"
          value={(filters.country as readonly string[] | undefined)?.[0]}
          options={COUNTRY_OPTIONS}
          onChange={(v) => set({ country: v === undefined ? undefined : ([v] as CompanyFilters['country']) })}
        />
      </details>
    </aside>
  );
}

const COUNTRY_OPTIONS: [string, string][] = [['', 'Any country'], ...[...COUNTRY_ALPHA3_CODES].sort().map((c): [string, string] => [c, c])];
