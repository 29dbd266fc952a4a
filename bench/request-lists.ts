/** Request lists per target, with the revalidation list kept on the current minute's ETags. */
import { currentEtags } from './capture.js';
import type { Manifest } from './manifest.js';
import type { Target } from './measure.js';
import { requestsFor, type RequestSpec, type Scenario, type ScenarioName } from './scenarios.js';

/** What the bench knows about one store's running service. */
export interface StoreSide {
  name: string;
  base: string;
  keys: Map<string, string>;
  redactedKeys: Map<string, string>;
  deepPaths: string[];
  searchTerms: { project: string; q: string }[];
  feedPaths: { project: string; path: string }[];
  etags: Map<string, string>;
  /** The minute (Date.now() / 60 s) the ETags were read in. */
  etagMinute: number;
}

const minute = (): number => Math.floor(Date.now() / 60_000);

/** Builds and hands out request lists; the ceiling replays the first store's lists. */
export class RequestLists {
  private cache = new Map<string, RequestSpec[]>();

  constructor(
    private manifest: Manifest,
    private sides: StoreSide[],
    private ceilingName: string,
    private seconds: number,
  ) {}

  private side(target: Target): StoreSide {
    const side = target.name === this.ceilingName ? this.sides[0] : this.sides.find((s) => s.name === target.name);
    if (side === undefined) throw new Error(`unknown target ${target.name}`);
    return side;
  }

  private list(name: ScenarioName, side: StoreSide): RequestSpec[] {
    const k = `${name}|${side.name}|${side.etagMinute}`;
    let l = this.cache.get(k);
    if (l === undefined) {
      l = requestsFor(name, { manifest: this.manifest, keys: side.keys, redactedKeys: side.redactedKeys, deepPaths: side.deepPaths, etags: side.etags, searchTerms: side.searchTerms, feedPaths: side.feedPaths });
      this.cache.set(k, l);
    }
    return l;
  }

  /** The list for a scenario on a target, refreshing ETags first when they might roll over mid-run. */
  async get(scenario: Scenario, target: Target): Promise<RequestSpec[]> {
    const side = this.side(target);
    if (scenario.name === 'etag-304' && target.name !== this.ceilingName) await this.freshEtags(side);
    return this.list(scenario.name, side);
  }

  // Signed document URLs expire on whole minutes and the ETag of such a record names the expiry,
  // so a revalidation run must not straddle a minute boundary: wait it out, then re-read the ETags.
  private async freshEtags(side: StoreSide): Promise<void> {
    const untilNextMinute = 60_000 - (Date.now() % 60_000);
    if (untilNextMinute < this.seconds * 1000 + 1500) await new Promise((r) => setTimeout(r, untilNextMinute + 50));
    if (side.etagMinute === minute()) return;
    side.etags = await currentEtags(side.base, this.list('company', side));
    side.etagMinute = minute();
  }
}
