/**
 * What recording one answer in the metrics costs: prom-client's histogram and counter (a label
 * object built and hashed per call) against CellHistogram's cells and PairCounter (map lookups),
 * over the label sets a busy service sees.
 * Run: node --import tsx bench/metrics-cost.ts
 */
import { Counter, Histogram, Registry } from 'prom-client';
import { CellHistogram } from '../src/http/cell-histogram.js';
import { routeCells } from '../src/http/metrics.js';
import { PairCounter } from '../src/http/pair-counter.js';
import { nsPerCall, report } from './per-call.js';

const BOUNDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const routes = ['/v1/companies', '/v1/alerts', '/v1/alerts/:id', '/v1/companies/:id/details', '/v1/customers/:customerId/scenario-executions', '/v1/changes'];
const statuses = [200, 200, 200, 200, 304, 404];
const seconds = Array.from({ length: 1024 }, (_, i) => (i % 97) / 10_000);
const lists = ['alerts', 'companies', 'executions'];

const histogram = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['route', 'method', 'status'] as const, buckets: BOUNDS, registers: [new Registry()] });
const cellOf = routeCells(new CellHistogram<'route' | 'method' | 'status'>('c_seconds', 'c', BOUNDS));

report('one answer timed (6 routes, 3 statuses)', [
  ['prom-client Histogram.observe', nsPerCall((i) => histogram.observe({ route: routes[i % 6]!, method: 'GET', status: String(statuses[i % 6]) }, seconds[i & 1023]!))],
  ['CellHistogram: cell found (routeCells), observed', nsPerCall((i) => cellOf(routes[i % 6]!, 'GET', statuses[i % 6]!).observe(seconds[i & 1023]!))],
]);

const counter = new Counter({ name: 'k_total', help: 'k', labelNames: ['list', 'outcome'] as const, registers: [new Registry()] });
const pairs = new PairCounter({ name: 'p_total', help: 'p', labelNames: ['list', 'outcome'] as const, registers: [new Registry()] });
report('one page cache outcome counted (3 lists)', [
  ['prom-client Counter.inc', nsPerCall((i) => counter.inc({ list: lists[i % 3]!, outcome: 'hit' }))],
  ['PairCounter.inc', nsPerCall((i) => pairs.inc(lists[i % 3]!, 'hit'))],
]);
