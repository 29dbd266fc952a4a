/** A customer's execution timeline: filters held in the URL, executions newest first, their scenarios and rules on demand. */
import { ListFoot } from '../list-foot.js';
import { SelectField } from '../select-field.js';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { ClientError } from '../../../src/client/client.js';
import { EXECUTION_STATUSES, RULE_OBJECT_TYPES } from '../../../src/contract/enums.js';
import type { Execution, RuleExecution } from '../../../src/contract/execution.js';
import { useExecutionPages, type ExecutionFilters } from '../api.js';
import { Badge, ErrorNote, instant } from '../format.js';
import { operatorText, pathText, valueText } from '../rule-text.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The timeline filters of a URL's search params; unknown values are dropped rather than sent to be refused. */
export function executionFiltersOf(search: Record<string, unknown>): ExecutionFilters {
  const raw = search.status;
  const status = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(String).filter((v) => (EXECUTION_STATUSES as readonly string[]).includes(v));
  const one = (name: string, ok: (v: string) => boolean): string | undefined => {
    const value = search[name];
    return typeof value === 'string' && value !== '' && ok(value) ? value : undefined;
  };
  return {
    status: status.length === 0 ? undefined : (status as ExecutionFilters['status']),
    scenarioId: one('scenarioId', (v) => v.length <= 256),
    objectType: one('objectType', (v) => (RULE_OBJECT_TYPES as readonly string[]).includes(v)) as ExecutionFilters['objectType'],
    from: one('from', (v) => DAY.test(v)),
    to: one('to', (v) => DAY.test(v)),
    order: one('order', (v) => v === 'asc' || v === 'desc') as ExecutionFilters['order'],
  };
}

const route = getRouteApi('/customers/$customerId/executions');

export function ExecutionTimeline() {
  const { customerId } = route.useParams();
  const filters = route.useSearch();
  const pages = useExecutionPages(customerId, filters);
  const executions = useMemo(() => pages.data?.pages.flatMap((p) => p.items) ?? [], [pages.data]);
  const missing = pages.error instanceof ClientError && pages.error.status === 404;

  return (
    <div className="inbox">
      <TimelineFilters customerId={customerId} filters={filters} />
      <section className="results timeline-view" id="content" tabIndex={-1} aria-labelledby="timeline-title">
        <h1 id="timeline-title">Executions</h1>
        <p className="muted">
          Customer <code>{customerId}</code>
        </p>
        {missing ? (
          <p className="error" role="alert">
            No customer with this id in this project.
          </p>
        ) : (
          pages.isError && <ErrorNote error={pages.error} retry={pages.refetch} />
        )}
        {pages.isSuccess && executions.length === 0 && <p className="muted">No executions of this customer match these filters.</p>}
        <ol className="timeline">
          {executions.map((execution) => (
            <ExecutionEntry key={execution.execution_id} execution={execution} />
          ))}
        </ol>
        <ListFoot pages={pages}>
          {pages.isPending ? 'Loading…' : pages.isError ? '' : `${executions.length} execution${executions.length === 1 ? '' : 's'}${pages.hasNextPage ? ' shown' : ''}`}
        </ListFoot>
      </section>
    </div>
  );
}

function ExecutionEntry({ execution }: { execution: Execution }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const scenarios = execution.scenario_executions;
  const rules = scenarios.reduce((n, s) => n + s.rules.length, 0);
  return (
    <li className="execution">
      <div className="execution-head">
        <time dateTime={execution.last_execution_date}>{instant(execution.last_execution_date)}</time>
        <Badge kind="status" value={execution.execution_status ?? 'no status'} />
        <code className="id">{execution.execution_id}</code>
        <span className="muted">
          {scenarios.length} scenario{scenarios.length === 1 ? '' : 's'}, {rules} rule{rules === 1 ? '' : 's'}
        </span>
        <button type="button" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
          {open ? 'Hide' : 'Show'} rules<span className="visually-hidden"> of execution {execution.execution_id}</span>
        </button>
      </div>
      <div id={panel} hidden={!open}>
        {open &&
          scenarios.map((scenario, i) => (
            <section key={`${scenario.scenarioId ?? ''}-${i}`} className="scenario" aria-label={`Scenario ${scenario.scenarioId ?? i + 1}`}>
              <h2 className="scenario-head">
                Scenario <code>{scenario.scenarioId ?? '—'}</code> <Badge kind="status" value={scenario.scenarioStatus ?? 'no status'} />
                {scenario.executed_at !== undefined && <span className="muted"> {instant(scenario.executed_at)}</span>}
              </h2>
              {scenario.rules.length === 0 ? (
                <p className="muted">No rules.</p>
              ) : (
                <ul className="rules">
                  {scenario.rules.map((rule, j) => (
                    <RuleLine key={rule.id ?? j} rule={rule} />
                  ))}
                </ul>
              )}
            </section>
          ))}
      </div>
    </li>
  );
}

function RuleLine({ rule }: { rule: RuleExecution }) {
  const data = rule.rule_data;
  const path = data?.attribute.path;
  return (
    <li className="rule">
      <Badge kind="status" value={rule.status ?? 'no status'} />{' '}
      {data === null || data === undefined ? (
        <span className="muted">no rule data</span>
      ) : (
        <span className="condition">
          {path === undefined ? <span className="muted">no attribute</span> : <code className="path">{pathText(path)}</code>} {operatorText(data.operator)}{' '}
          {data.operator === '$exists' || data.operator === '$noop' ? null : <strong>{valueText(data.value)}</strong>}
        </span>
      )}{' '}
      {rule.object_type !== undefined && (
        <span className="tag" title="object type">
          <span className="visually-hidden">object type </span>
          {rule.object_type}
        </span>
      )}
      {data?.type !== undefined && (
        <span className="tag" title="data type">
          <span className="visually-hidden">data type </span>
          {data.type}
        </span>
      )}
    </li>
  );
}

/** The filter controls: each change navigates, so the URL (and back/forward) holds every filter. */
function TimelineFilters({ customerId, filters }: { customerId: string; filters: ExecutionFilters }) {
  const navigate = route.useNavigate();
  const [open, setOpen] = useState(() => window.matchMedia('(min-width: 761px)').matches);
  const active = Object.entries(filters).filter(([name, v]) => v !== undefined && name !== 'order').length;
  const set = (patch: Partial<ExecutionFilters>) => void navigate({ search: (prev) => ({ ...prev, ...patch }) });
  const toggle = (value: string, on: boolean) => {
    const current = ((filters.status as readonly string[] | undefined) ?? []).filter((v) => v !== value);
    const next = on ? [...current, value] : current;
    set({ status: next.length === 0 ? undefined : (next as ExecutionFilters['status']) });
  };
  const select = (label: string, id: string, value: string | undefined, options: [string, string][], onChange: (v: string | undefined) => void): ReactNode => (
    <SelectField label={label} id={id} value={value} options={options} onChange={onChange} />
  );
  return (
    <aside className="filters" aria-label="Filters">
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>Filters{active > 0 && ` (${active} active)`}</summary>
        <fieldset>
          <legend>Status</legend>
          {EXECUTION_STATUSES.map((value) => (
            <label key={value} className="check">
              <input type="checkbox" checked={((filters.status as readonly string[] | undefined) ?? []).includes(value)} onChange={(e) => toggle(value, e.target.checked)} />
              {value}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor="scenario-id">Scenario</label>
          <input
            id="scenario-id"
            key={filters.scenarioId ?? ''}
            defaultValue={filters.scenarioId ?? ''}
            placeholder="any scenario"
            aria-describedby="scenario-id-hint"
            onBlur={(e) => set({ scenarioId: e.target.value.trim() || undefined })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') set({ scenarioId: e.currentTarget.value.trim() || undefined });
            }}
          />
          <small id="scenario-id-hint" className="muted">
            A scenario id; Enter applies.
          </small>
        </div>
        {select('Object type', 'object-type', filters.objectType, [['', 'Any'], ...RULE_OBJECT_TYPES.map((t): [string, string] => [t, t])], (v) =>
          set({ objectType: v as ExecutionFilters['objectType'] }),
        )}
        <div className="field">
          <label htmlFor="from">From (UTC day, inclusive)</label>
          <input id="from" type="date" value={filters.from ?? ''} onChange={(e) => set({ from: e.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor="to">Before (UTC day)</label>
          <input id="to" type="date" value={filters.to ?? ''} onChange={(e) => set({ to: e.target.value || undefined })} />
        </div>
        {select('Order', 'order', filters.order, [['', 'Newest first'], ['asc', 'Oldest first']], (v) => set({ order: v as ExecutionFilters['order'] }))}
        <p className="back">
          <Link to="/customers/$customerId/executions" params={{ customerId }} search={{}}>
            Clear filters
          </Link>
        </p>
      </details>
    </aside>
  );
}
