/**
 * `npm run bench`: imports a generated data set into each store, serves it, and measures each
 * scenario against a ceiling server replaying the same bytes, in the same run. See README.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServiceBuild } from './build-service.js';
import { captureResponses, captureSearchTerms, catchUpFeeds, walkToDeepPages, type DeepWalk, type FeedCatchUp } from './capture.js';
import { startCeiling } from './ceiling.js';
import { ensureHaproxy, startConstant } from './constant-server.js';
import { writeCeilingData, type CapturedResponse } from './ceiling-data.js';
import { ratioChart } from './chart.js';
import { ensureDataset } from './dataset.js';
import { closeAgent } from './http-get.js';
import { appendHistory, historyChart, historyEntry, readHistory } from './history.js';
import { floorOf, measureInsert, sampleLines, type ImportFloor, type SampledLines } from './import-floor.js';
import { createKeys, importDataset, type ImportResult } from './import-store.js';
import { machineInfo } from './machine.js';
import { ensureWrk } from './load.js';
import { calibrate, measureAll, warmUp, type Plan } from './measure.js';
import { parseOptions } from './options.js';
import { postgresPids, settle } from './process-cpu.js';
import { profileSummaries } from './profile-summary.js';
import { RequestLists, type StoreSide } from './request-lists.js';
import { compressedDataset, datasetOptions } from './scales.js';
import { SCENARIOS, companyPath, feedPath } from './scenarios.js';
import { startService, type RunningService } from './service-process.js';
import { describeDataset } from './describe.js';
import { createStore, settleStore, type BenchStore } from './stores.js';
import { measureLinkRtt, openPgLink, type PgLink } from './pg-link.js';
import { NODE_AB, NO_ACCESS_LOG, NO_CACHE, PG_LINK, calibrationVerdicts, formatCalibration, formatLines, formatLinkLines, formatTable, type StoreFacts } from './report.js';
import { summarise } from './summary.js';

const CEILING = 'ceiling';
const started = performance.now();
const log = (line: string): void => void process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

const opts = parseOptions(process.argv.slice(2));
const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, 'bench', '.cache');
const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
const runDir = join(cacheDir, `run-${stamp}`);
const machine = machineInfo();
log(`machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGb} GB, node ${machine.node}, load ${machine.loadAverage.toFixed(2)}`);
const wrkVersion = ensureWrk(log);
log(`load generator: ${wrkVersion}, ${opts.wrkThreads} thread(s)`);
const haproxyVersion = ensureHaproxy(log);
log(`calibration target: ${haproxyVersion}`);
mkdirSync(runDir, { recursive: true });

const build = await ensureServiceBuild(root, cacheDir);
log(`service build ${build.hash} (${build.kind})`);
const dataset = await ensureDataset(root, cacheDir, datasetOptions(opts.scale), compressedDataset(opts.scale));
log(`data set ${dataset.hash}: ${dataset.reused ? 'reused from the cache' : `generated in ${dataset.generateSeconds.toFixed(1)} s`}`);
process.stderr.write(describeDataset(dataset.manifest));

const unknown = opts.scenarios.filter((n) => !SCENARIOS.some((s) => s.name === n));
if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; scenarios are ${SCENARIOS.map((s) => s.name).join(', ')}`);
const scenarios = SCENARIOS.filter((s) => opts.scenarios.length === 0 || opts.scenarios.includes(s.name));
const stores: BenchStore[] = [];
const services: RunningService[] = [];
const stoppers: (() => Promise<void>)[] = [];
const profileDir = (store: string): string => join(runDir, 'profiles', store);
let linkRtt: number | undefined;
try {
  const sides: StoreSide[] = [];
  const imports = new Map<string, ImportResult>();
  const floors = new Map<string, ImportFloor>();
  let sampled: SampledLines | undefined;
  const walks = new Map<string, DeepWalk>();
  const catchUps = new Map<string, FeedCatchUp>();
  const captured: CapturedResponse[] = [];
  /** Per target name, the processes an answer costs CPU in. */
  const cpuPids = new Map<string, () => number[]>();
  const emulatorPids = new Map<string, () => number[]>();
  const pidsOf = (kind: string, pid: number) => (): number[] => (kind === 'postgres' ? [pid, ...postgresPids()] : [pid]);
  const m = dataset.manifest;
  for (const kind of opts.stores) {
    const store = await createStore(kind, runDir, opts.pgUrl);
    stores.push(store);
    log(`${kind}: importing ${m.records.toLocaleString('en')} records`);
    const imp = await importDataset(build, store, dataset.file);
    imports.set(kind, imp);
    log(`${kind}: imported ${imp.stored} in ${imp.seconds.toFixed(1)} s (${Math.round(imp.recordsPerSecond)} records/s, peak ${imp.peakRssMb?.toFixed(0) ?? '?'} MB: largest process ${imp.largestProcessMb?.toFixed(0) ?? '?'} MB RSS, processes together ${imp.togetherMb?.toFixed(0) ?? '?'} MB, ${imp.rejected} rejected)`);
    // Pages the kernel still holds from this import would otherwise be written back during the
    // next store's import and charged to it.
    const synced = performance.now();
    execFileSync('sync');
    log(`${kind}: disk write-back after the import took ${((performance.now() - synced) / 1000).toFixed(1)} s (not counted in records/s)`);
    if (kind === 'postgres') log(`${kind}: VACUUM (ANALYZE) of the store's tables took ${(await settleStore(store)).toFixed(1)} s (not counted in records/s)`);
    // The floor is measured after the import, so that neither finds the file in the page cache the other left.
    sampled ??= await sampleLines(dataset.file, m.records);
    const floor = floorOf(sampled, await measureInsert(store, runDir, sampled));
    floors.set(kind, floor);
    if (kind === opts.stores.at(-1)) sampled = undefined;
    const st = floor.steps;
    log(`${kind}: import floor ${Math.round(floor.recordsPerSecond)} records/s on ${floor.cores} cores (µs per record: read ${st.read.toFixed(0)}, parse ${st.parse.toFixed(0)}, deflate ${st.deflate.toFixed(0)}, insert ${st.insert.toFixed(0)}; ${floor.sampled} of ${floor.records} lines parsed and written)`);
    const keys = await createKeys(build, store, m.projects);
    const redactedKeys = await createKeys(build, store, m.projects, ['companies:read', 'executions:read', 'alerts:read', 'changes:read']);
    const probe = m.samples.company[0]!;
    const nodeArgs = opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profileDir(kind)] : [];
    const serveArgs = kind === 'postgres' ? opts.pgServeArgs : [];
    const service = await startService(build, store, { path: companyPath(probe.id), key: keys.get(probe.project)! }, nodeArgs, serveArgs);
    services.push(service);
    stoppers.unshift(async () => {
      const t = performance.now();
      await service.stop();
      const seconds = (performance.now() - t) / 1000;
      log(`${kind}: service stopped ${seconds.toFixed(1)} s after SIGTERM`);
      // A slow stop means requests were still in flight or the store would not close: show what
      // the service said.
      if (seconds > 2 && service.stderrTail() !== '') process.stderr.write(service.stderrTail().replace(/^/gm, `  ${kind} stderr: `) + '\n');
    });
    log(`${kind}: service answered ${service.startupMs.toFixed(0)} ms after spawn`);
    const walk = await walkToDeepPages(service.base, keys.get(m.heavyCustomer.project)!, m.heavyCustomer.id, 1000);
    walks.set(kind, walk);
    log(`${kind}: followed ${walk.pages} pages of Link rel="next" in ${walk.seconds.toFixed(1)} s for deep cursors`);
    const searchTerms = await captureSearchTerms(service.base, keys, m.projects);
    const feed = await catchUpFeeds(service.base, keys, m.projects, feedPath());
    catchUps.set(kind, feed);
    log(`${kind}: caught up ${feed.changes} changes in ${feed.pages} pages from the start in ${feed.seconds.toFixed(2)} s; ${searchTerms.length} search terms`);
    const side: StoreSide = { name: kind, base: service.base, keys, redactedKeys, deepPaths: walk.deepPaths, searchTerms, feedPaths: feed.paths, etags: new Map(), etagMinute: -1 };
    const lists = new RequestLists(m, [side], CEILING, opts.duration);
    for (const s of scenarios) captured.push(...(await captureResponses(service.base, await lists.get(s, { name: kind, base: service.base }), s.expect)));
    sides.push(side);
    cpuPids.set(kind, pidsOf(kind, service.pid));
    const quiet = await settle(pidsOf(kind, service.pid));
    log(`${kind}: service ${quiet.settled ? 'quiet' : 'still busy'} ${quiet.seconds.toFixed(1)} s after the catch-up and captures`);
    if (opts.accessLogAb) {
      // The same store served without its access log, measured in the same rotation: the difference is the log's cost.
      const twin = await startService(build, store, { path: companyPath(probe.id), key: keys.get(probe.project)! }, [], ['--access-log', 'off']);
      stoppers.unshift(() => twin.stop());
      sides.push({ ...side, name: `${kind}${NO_ACCESS_LOG}`, base: twin.base, etags: new Map(), etagMinute: -1 });
      cpuPids.set(`${kind}${NO_ACCESS_LOG}`, pidsOf(kind, twin.pid));
    }
    if (opts.pgLinkMs > 0 && kind === 'postgres') {
      // The same store served from a network namespace whose link to PostgreSQL has the round trip asked for.
      const link: PgLink = await openPgLink(Math.round((opts.pgLinkMs * 1000) / 2), Number(new URL(store.url).port || 5432), cacheDir, log);
      stoppers.push(() => link.close());
      linkRtt = await measureLinkRtt(store.url, link.databaseUrl(store.url), link.prefix);
      log(`${kind}${PG_LINK}: a SELECT 1 across the link takes ${linkRtt.toFixed(2)} ms more than on loopback (median of 200 each)`);
      const place = { prefix: link.prefix, host: link.serviceHost, dbUrl: link.databaseUrl(store.url) };
      const twin = await startService(build, store, { path: companyPath(probe.id), key: keys.get(probe.project)! }, opts.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', profileDir(`${kind}${PG_LINK}`)] : [], serveArgs, place);
      stoppers.unshift(() => twin.stop());
      log(`${kind}${PG_LINK}: service in the namespace answered ${twin.startupMs.toFixed(0)} ms after spawn`);
      sides.push({ ...side, name: `${kind}${PG_LINK}`, base: twin.base, etags: new Map(), etagMinute: -1 });
      cpuPids.set(`${kind}${PG_LINK}`, pidsOf(kind, twin.pid));
      emulatorPids.set(`${kind}${PG_LINK}`, () => [link.forwarderPid()].filter((p): p is number => p !== undefined));
    }
    if (opts.cacheAb) {
      // The same store with nothing kept in memory: every list page and record answer read from the store and rendered.
      const twin = await startService(build, store, { path: companyPath(probe.id), key: keys.get(probe.project)! }, [], ['--list-page-cache-mb', '0', '--answer-cache-mb', '0']);
      stoppers.unshift(() => twin.stop());
      sides.push({ ...side, name: `${kind}${NO_CACHE}`, base: twin.base, etags: new Map(), etagMinute: -1 });
      cpuPids.set(`${kind}${NO_CACHE}`, pidsOf(kind, twin.pid));
    }
    if (opts.nodeAb.length > 0) {
      // The same store served by a node started with other flags (heap sizes, GC), in the same rotation.
      const twin = await startService(build, store, { path: companyPath(probe.id), key: keys.get(probe.project)! }, opts.nodeAb, serveArgs);
      stoppers.unshift(() => twin.stop());
      sides.push({ ...side, name: `${kind}${NODE_AB}`, base: twin.base, etags: new Map(), etagMinute: -1 });
      cpuPids.set(`${kind}${NODE_AB}`, pidsOf(kind, twin.pid));
    }
  }
  const dataFile = join(runDir, 'ceiling.bin');
  writeCeilingData(dataFile, captured);
  const ceiling = await startCeiling(dataFile);
  stoppers.push(() => ceiling.stop());
  log(`ceiling server holds ${captured.length} captured responses`);

  const constant = await startConstant(runDir);
  stoppers.push(() => constant.stop());

  const lists = new RequestLists(m, sides, CEILING, opts.duration);
  const plan: Plan = {
    scenarios,
    connections: opts.connections,
    reps: opts.reps,
    seconds: opts.duration,
    generator: { threads: opts.wrkThreads, dir: runDir },
    targets: [
      { name: CEILING, base: ceiling.base, cpuPids: () => [ceiling.pid] },
      ...sides.map((s) => ({ name: s.name, base: s.base, cpuPids: cpuPids.get(s.name), emulatorPids: emulatorPids.get(s.name) })),
    ],
    requests: (s, t) => lists.get(s, t),
    log,
    // The access log flushes every 250 ms: its last batch of a window is paid in that window.
    cpuSettleMs: opts.accessLogAb || opts.cacheAb ? 300 : undefined,
  };
  const count = scenarios.length * opts.connections.length * opts.reps * plan.targets.length;
  log(`measuring: ${count} runs of ${opts.duration} s (${scenarios.length} scenarios × ${opts.connections.join('/')} connections × ${opts.reps} reps × ${plan.targets.length} targets)`);
  await warmUp(plan, Math.max(2, opts.duration), Math.max(1, opts.duration));
  const calibration = await calibrate(plan, constant.base, await lists.get({ name: 'company', expect: 200 }, plan.targets[0]!));
  const samples = await measureAll(plan);
  // Idle keep-alive sockets of the capture agent would hold each service's graceful shutdown
  // open for its whole grace period.
  closeAgent();
  const stopping = performance.now();
  for (const stop of stoppers.splice(0)) await stop();
  log(`services and ceiling stopped in ${((performance.now() - stopping) / 1000).toFixed(1)} s`);

  const rows = summarise(samples, CEILING);
  const facts: StoreFacts[] = opts.stores.map((kind, i) => ({ store: kind, recordsPerSecond: imports.get(kind)!.recordsPerSecond, peakRssMb: imports.get(kind)!.peakRssMb, floor: floors.get(kind), startupMs: services[i]!.startupMs, feed: catchUps.get(kind) }));
  const verdicts = calibrationVerdicts(calibration, rows);
  process.stdout.write(`\n${formatTable(rows)}\n\n${formatCalibration(verdicts)}\n${formatLines(rows, facts, opts.scale)}\n`);
  if (opts.pgLinkMs > 0) process.stdout.write(`${formatLinkLines(rows, opts.pgLinkMs, linkRtt)}\n`);

  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const base = join(resultsDir, `${stamp}-${opts.scale}`);
  const profiled = opts.pgLinkMs > 0 && opts.stores.includes('postgres') ? [...opts.stores, `postgres${PG_LINK}`] : opts.stores;
  const profiles = opts.cpuProf ? profileSummaries(profiled.map((kind) => ({ store: kind, dir: profileDir(kind) }))) : undefined;
  if (profiles !== undefined) process.stdout.write(`\n${profiles.text}`);
  const { samples: _samples, ...manifestSummary } = m;
  writeFileSync(
    `${base}.json`,
    `${JSON.stringify({ startedAt: stamp, options: opts, machine, generator: { tool: 'wrk', version: wrkVersion, threads: opts.wrkThreads }, calibration: { target: haproxyVersion, valid: verdicts.every((v) => v.pass), verdicts, runs: calibration }, build: { hash: build.hash, kind: build.kind }, dataset: { hash: dataset.hash, reused: dataset.reused, generateSeconds: dataset.generateSeconds, generatorOptions: dataset.options, ...manifestSummary }, imports: Object.fromEntries(imports), importFloors: Object.fromEntries(floors), startupMs: Object.fromEntries(facts.map((f) => [f.store, f.startupMs])), deepWalks: Object.fromEntries(walks), feedCatchUps: Object.fromEntries([...catchUps].map(([k, f]) => [k, { changes: f.changes, pages: f.pages, seconds: f.seconds }])), rows, samples, profiles: profiles?.top }, null, 1)}\n`,
  );
  writeFileSync(`${base}.svg`, ratioChart(rows, `compliance-read bench, ${opts.scale} scale, ${stamp}`));
  log(`wrote ${base}.json and ${base}.svg`);
  if (opts.history) {
    const historyFile = join(resultsDir, 'history.ndjson');
    const run = { startedAt: stamp, scale: opts.scale, build: build.hash, reps: opts.reps, duration: opts.duration, calibrationValid: verdicts.every((v) => v.pass), calibrationFactor: Math.min(...verdicts.map((v) => v.headroom)) };
    appendHistory(historyFile, historyEntry(run, rows, imports, floors, catchUps));
    const chart = join(resultsDir, `history-${opts.scale}.svg`);
    writeFileSync(chart, historyChart(readHistory(historyFile), opts.scale));
    log(`added the run to ${historyFile} and drew ${chart}`);
  }
} finally {
  for (const stop of stoppers) await stop().catch(() => undefined);
  if (!opts.keep) {
    for (const s of stores) await s.drop().catch((err: Error) => log(`could not drop the ${s.kind} store: ${err.message}`));
    rmSync(runDir, { recursive: true, force: true });
  }
  closeAgent();
}
log('done');
// Nothing is pending once the results are written; a stray handle must not hold the exit.
process.exit(0);
