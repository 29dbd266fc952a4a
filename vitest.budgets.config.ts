import { defineConfig } from 'vitest/config';
import { BUDGETS } from './vitest.config.js';

// The console's budgets in Chromium, alone on the machine: run by `npm test` after every other suite.
export default defineConfig({ test: { name: 'budgets', include: BUDGETS, testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' } });
