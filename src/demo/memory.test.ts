import { describe, expect, it } from 'vitest';
import { generateDemo } from './index.js';

describe('generateDemo at scale', () => {
  it('streams 200k companies with flat memory', { timeout: 600_000 }, () => {
    const companies = 200_000;
    let lines = 0;
    let bytes = 0;
    let baseline = 0;
    let peak = 0;
    for (const line of generateDemo({ projects: 1, companies, individuals: 0, alerts: 0, executionsPerCustomer: 0, heavyCustomerExecutions: 0 })) {
      lines += 1;
      bytes += line.length;
      if (lines === 5_000) baseline = process.memoryUsage().heapUsed;
      if (lines > 5_000 && lines % 5_000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(lines).toBe(companies);
    // Hundreds of megabytes went through; the heap may wobble with garbage collection, but
    // holding the records would have grown it by about as much as the output.
    expect(bytes).toBeGreaterThan(400_000_000);
    expect(peak - baseline).toBeLessThan(64 * 1024 * 1024);
  });
});
