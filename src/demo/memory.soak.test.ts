import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { generateDemo } from './index.js';

// A forced collection makes heap readings comparable; without it the heap swings by tens of
// megabytes with the collector's timing and a leak would hide in the noise.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function liveHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('generateDemo at scale', () => {
  it('streams 200k companies with flat memory', { timeout: 600_000 }, () => {
    const companies = 200_000;
    let lines = 0;
    let chars = 0;
    let baseline = 0;
    let peak = 0;
    for (const line of generateDemo({ projects: 1, companies, individuals: 0, alerts: 0, executionsPerCustomer: 0, heavyCustomerExecutions: 0 })) {
      lines += 1;
      chars += line.length;
      if (lines === 10_000) baseline = liveHeap();
      if (lines > 10_000 && lines % 50_000 === 0) peak = Math.max(peak, liveHeap());
    }
    expect(lines).toBe(companies);
    // Hundreds of megabytes went through; keeping even a tenth of them would show here.
    expect(chars).toBeGreaterThan(400_000_000);
    expect(peak - baseline).toBeLessThan(16 * 1024 * 1024);
  });
});
