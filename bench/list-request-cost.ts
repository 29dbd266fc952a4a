/**
 * What a list request costs before its page is found: the query checked, the store filter built,
 * the cursor's query id and the page cache's key serialized. Each time against once per URL asked
 * again (parametersOf, listFilterOf, and frozenJson as the page cache's key takes it).
 * Run: node --import tsx bench/list-request-cost.ts
 */
import { OPERATIONS } from '../src/contract/operations.js';
import { listFilterOf } from '../src/http/list-query.js';
import { parseParameters, type Parameters } from '../src/http/parameters.js';
import { parametersOf } from '../src/http/parsed-urls.js';
import { frozenJson } from '../src/store/frozen-json.js';
import { nsPerCall, report } from './per-call.js';

const op = OPERATIONS.listAlerts;
const urls = Array.from({ length: 40 }, (_, i) => `/v1/alerts?status=Open&status=Pending&order=desc&limit=${10 + i}`);
const fields = Object.freeze({ body: 'always', layout: 'always' });
const project = 'project-0001';

function filterOf(params: Parameters): { order: string; statuses?: string[] } {
  const statuses = params.query.status as string[] | undefined;
  const filter: { order: string; statuses?: string[] } = { order: (params.query.order as string | undefined) ?? 'desc' };
  if (statuses !== undefined) filter.statuses = [...new Set(statuses)].sort();
  return filter;
}

report('a list request before its page (40 URLs in turn)', [
  ['parsed, built and serialized each time', nsPerCall((i) => {
    const params = parseParameters(op, {}, urls[i % 40]!);
    const filter = filterOf(params);
    const queryId = JSON.stringify(['alerts', project, filter]);
    return queryId.length + JSON.stringify(['alerts', project, filter, null, 51, fields]).length;
  })],
  ['kept per URL', nsPerCall((i) => {
    const params = parametersOf(op, {}, urls[i % 40]!);
    const { json } = listFilterOf(params, filterOf);
    const queryId = `["alerts",${JSON.stringify(project)},${json}]`;
    return queryId.length + `["alerts",${JSON.stringify(project)},${json},null,51,${frozenJson(fields)}]`.length;
  })],
]);
