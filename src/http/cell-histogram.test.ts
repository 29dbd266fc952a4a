import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellHistogram } from './cell-histogram.js';

describe('CellHistogram', () => {
  it('is exposed as a cumulative histogram per label set, with sum and count', async () => {
    const histogram = new CellHistogram<'route' | 'status'>('t_seconds', 'durations', [0.001, 0.01]);
    const registry = new Registry();
    registry.registerMetric(histogram.asMetric());
    const ok = histogram.cell({ route: '/v1/alerts/:id', status: '200' });
    const missing = histogram.cell({ route: 'unmatched', status: '404' });
    for (const s of [0.0005, 0.001, 0.5]) ok.observe(s);
    missing.observe(0.002);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE t_seconds histogram');
    expect(text).toContain('t_seconds_bucket{route="/v1/alerts/:id",status="200",le="0.001"} 2');
    expect(text).toContain('t_seconds_bucket{route="/v1/alerts/:id",status="200",le="0.01"} 2');
    expect(text).toContain('t_seconds_bucket{route="/v1/alerts/:id",status="200",le="+Inf"} 3');
    expect(text).toContain('t_seconds_sum{route="/v1/alerts/:id",status="200"} 0.5015');
    expect(text).toContain('t_seconds_count{route="/v1/alerts/:id",status="200"} 3');
    expect(text).toContain('t_seconds_bucket{route="unmatched",status="404",le="0.001"} 0');
    expect(text).toContain('t_seconds_bucket{route="unmatched",status="404",le="0.01"} 1');
    expect(histogram.counts()).toEqual([
      { labels: { route: '/v1/alerts/:id', status: '200' }, count: 3 },
      { labels: { route: 'unmatched', status: '404' }, count: 1 },
    ]);
  });
});
