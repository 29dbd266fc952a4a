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

  it('shows each pair it is told of at 0 until first counted, and keeps what was counted before', async () => {
    const registry = new Registry();
    const counter = new PairCounter({ name: 'reads_total', help: 'reads', labelNames: ['kind', 'outcome'] as const, registers: [registry] });
    counter.inc('alert', 'hit');
    counter.zero(['company', 'alert'], ['hit', 'miss']);
    const text = await registry.metrics();
    for (const zero of ['{kind="company",outcome="hit"} 0', '{kind="company",outcome="miss"} 0', '{kind="alert",outcome="miss"} 0']) expect(text).toContain(`reads_total${zero}`);
    expect(text).toContain('reads_total{kind="alert",outcome="hit"} 1');
    counter.inc('company', 'miss');
    expect(await registry.metrics()).toContain('reads_total{kind="company",outcome="miss"} 1');
  });
});
