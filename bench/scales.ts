/** The demo generator options behind each bench scale. */
import type { DemoOptions } from '../src/demo/index.js';
import type { Scale } from './options.js';

/** Generator options without the callback, so they can be hashed and stored as JSON. */
export type DatasetOptions = Omit<DemoOptions, 'onDocument'>;

// Large: 2 projects × 500,000 companies = 1,000,000 companies of ~3 KB; 2 × 100,000 alerts with
// 1 % near 1 MB; executions: one heavy customer with 100,000, and the rest tuned to ~1.9 M so the
// total is ~2 M. An ordinary customer averages executionsPerCustomer (uniform 0..2m) and a share
// executionTailRatio of customers has 100..400 (mean 250): 1e6 × (0.9964 × 1 + 0.0036 × 250) ≈ 1.9 M.
// The tail ratio is not a CLI flag, which is why the bench drives the generator in-process.
const LARGE: DatasetOptions = {
  seed: 20240601,
  projects: 2,
  companies: 500_000,
  individuals: 0,
  alerts: 100_000,
  executionsPerCustomer: 1,
  executionTailRatio: 0.0036,
  heavyCustomerExecutions: 100_000,
  largeAlertRatio: 0.01,
  extraFields: false,
};

// Small: the same shape, sized so that generating and importing it takes seconds. The heavy
// customer still has enough executions for a deep page well past the first one.
const SMALL: DatasetOptions = {
  seed: 20240601,
  projects: 2,
  companies: 150,
  individuals: 30,
  alerts: 200,
  executionsPerCustomer: 2,
  executionTailRatio: 0.01,
  heavyCustomerExecutions: 4_000,
  largeAlertRatio: 0.01,
  extraFields: false,
};

/** The generator options of a scale. */
export function datasetOptions(scale: Scale): DatasetOptions {
  return scale === 'large' ? LARGE : SMALL;
}

/** Whether the scale's data set is stored gzip-compressed (see ensureDataset). */
export function compressedDataset(scale: Scale): boolean {
  return scale === 'large';
}
