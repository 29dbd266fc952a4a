/** Nanoseconds per call of small functions: warm-up, then the median of several timed rounds. */

/** The median ns per call of `fn` over `rounds` rounds of `calls` calls each. */
export function nsPerCall(fn: (i: number) => unknown, calls = 200_000, rounds = 7): number {
  let sink: unknown;
  for (let i = 0; i < calls; i++) sink = fn(i);
  const times: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink = fn(i);
    times.push(Number(process.hrtime.bigint() - t0) / calls);
  }
  if (sink === Symbol.for('never')) console.log(sink); // keeps the calls from being optimised away
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Prints one row per named function, its ns per call. */
export function report(title: string, rows: Array<[string, number]>): void {
  console.log(`\n${title}`);
  for (const [name, ns] of rows) console.log(`  ${name.padEnd(48)} ${ns.toFixed(0).padStart(7)} ns/call`);
}
