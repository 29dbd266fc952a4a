import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PairCounter } from './pair-counter.js';

describe('PairCounter', () => {
  it('is scraped as a counter per pair of label values, counting every inc', async () => {
    const registry = new Registry();
    const counter = new PairCounter({ name: 'pages_total', help: 'pages', labelNames: ['list', 'outcome'] as const, registers: [registry] });
    counter.inc('alerts', 'hit');
    counter.inc('alerts', 'hit');
    counter.inc('alerts', 'miss');
    counter.inc('companies', 'stale');
    const text = await registry.metrics();
    expect(text).toContain('# TYPE pages_total counter');
    expect(text).toContain('pages_total{list="alerts",outcome="hit"} 2');
    expect(text).toContain('pages_total{list="alerts",outcome="miss"} 1');
    expect(text).toContain('pages_total{list="companies",outcome="stale"} 1');
    counter.inc('alerts', 'hit');
    expect(await registry.metrics()).toContain('pages_total{list="alerts",outcome="hit"} 3');
  });
});
