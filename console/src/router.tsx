/** The console's routes (code-based), under /console; the URL's search params hold the inbox filters. */
import { createRootRoute, createRoute, createRouter, redirect } from '@tanstack/react-router';
import { AlertView } from './routes/alert.js';
import { Inbox, inboxFiltersOf } from './routes/alerts.js';
import { CompanyView } from './routes/company.js';
import { ExecutionTimeline, executionFiltersOf } from './routes/executions.js';
import { CompanyList, companySearchOf } from './routes/companies.js';
import { Shell } from './routes/shell.js';

const rootRoute = createRootRoute({ component: Shell });

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/alerts' });
  },
});

const inboxRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'alerts',
  validateSearch: inboxFiltersOf,
  component: Inbox,
});

const alertRoute = createRoute({ getParentRoute: () => rootRoute, path: 'alerts/$alertId', component: AlertView });
const companiesRoute = createRoute({ getParentRoute: () => rootRoute, path: 'companies', validateSearch: companySearchOf, component: CompanyList });
const companyRoute = createRoute({ getParentRoute: () => rootRoute, path: 'companies/$companyId', component: CompanyView });
const executionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'customers/$customerId/executions',
  validateSearch: executionFiltersOf,
  component: ExecutionTimeline,
});

/** Plain search params, a repeated name for several values (`?status=Open&status=Pending`), as the API takes them. */
function parseSearch(search: string): Record<string, string | string[]> {
  const params = new URLSearchParams(search);
  const out: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    out[name] = values.length === 1 ? values[0]! : values;
  }
  return out;
}

function stringifySearch(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== '') params.append(name, String(v));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export const router = createRouter({
  routeTree: rootRoute.addChildren([indexRoute, inboxRoute, alertRoute, companiesRoute, companyRoute, executionsRoute]),
  basepath: '/console',
  parseSearch,
  stringifySearch,
  defaultPreload: false,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

declare module '@tanstack/history' {
  /** What a list's row link leaves in the history entry it opens: the list's search, for the back link. */
  interface HistoryState {
    inboxSearch?: Record<string, unknown>;
    companiesSearch?: Record<string, unknown>;
  }
}
