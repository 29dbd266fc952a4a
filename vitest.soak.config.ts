import { defineConfig } from 'vitest/config';
import { SOAKS } from './vitest.config.js';

// Memory over hundreds of thousands of records: run by `npm run test:soak`, not by `npm test`.
export default defineConfig({ test: { name: 'soak', include: SOAKS, testTimeout: 600_000, pool: 'forks' } });
