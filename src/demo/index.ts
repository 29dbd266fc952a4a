/** The demo data generator's public surface. */
export { generateDemo, demoDocuments } from './generator.js';
export { DEMO_DEFAULTS, projectIds, resolveDemoOptions, type DemoDocumentRef, type DemoOptions, type ResolvedDemoOptions } from './options.js';
export { sampleFileFor, type SampleFile } from './sample-files.js';
export { DEMO_EPOCH_MS, DEMO_NOW_MS } from './dates.js';
