/**
 * A project's change epoch moves when a check finds a change and only then, each project checks
 * against one stamp (the newest found current), and checks answered out of order never leave an
 * epoch standing that a found change should have moved.
 */
import { describe, expect, it } from 'vitest';
import { ChangeEpochs } from './change-epochs.js';
import type { ChangeStamp } from './store.js';

/** A stamp source whose answers the test gives by hand, in any order; it records what each check asked. */
function scripted() {
  const asked: { project: string; since: string | undefined; answer: (s: ChangeStamp) => void }[] = [];
  const epochs = new ChangeEpochs((project, since) => new Promise<ChangeStamp>((answer) => asked.push({ project, since, answer })));
  return { epochs, asked };
}

describe('change epochs', () => {
  it('keeps the epoch while checks find nothing changed, asking each time from the newest stamp', async () => {
    const { epochs, asked } = scripted();
    const first = epochs.current('p');
    asked[0]!.answer({ stamp: 's1', changed: false });
    const e1 = await first;
    const second = epochs.current('p');
    asked[1]!.answer({ stamp: 's2', changed: false });
    expect(await second).toBe(e1);
    const third = epochs.current('p');
    asked[2]!.answer({ stamp: 's3', changed: false });
    expect(await third).toBe(e1);
    expect(asked.map((a) => a.since)).toEqual([undefined, 's1', 's2']);
  });

  it('moves the epoch when a change is found, and checks from the stamp that found it', async () => {
    const { epochs, asked } = scripted();
    const first = epochs.current('p');
    asked[0]!.answer({ stamp: 's1', changed: false });
    const e1 = await first;
    const second = epochs.current('p');
    asked[1]!.answer({ stamp: 's2', changed: true });
    const e2 = await second;
    expect(e2).not.toBe(e1);
    const third = epochs.current('p');
    asked[2]!.answer({ stamp: 's3', changed: false });
    expect(await third).toBe(e2);
    expect(asked[2]!.since).toBe('s2');
  });

  it('keeps projects apart', async () => {
    const { epochs, asked } = scripted();
    const a = epochs.current('a');
    const b = epochs.current('b');
    asked[0]!.answer({ stamp: 'a1', changed: false });
    asked[1]!.answer({ stamp: 'b1', changed: false });
    const [a1, b1] = [await a, await b];
    const a2 = epochs.current('a');
    const b2 = epochs.current('b');
    asked[2]!.answer({ stamp: 'a2', changed: true });
    asked[3]!.answer({ stamp: 'b2', changed: false });
    expect(await a2).not.toBe(a1);
    expect(await b2).toBe(b1);
    expect(asked.map((x) => `${x.project}:${x.since}`)).toEqual(['a:undefined', 'b:undefined', 'a:a1', 'b:b1']);
  });

  it('an unchanged answer arriving after a change was found neither moves the epoch back nor the stamp', async () => {
    const { epochs, asked } = scripted();
    const first = epochs.current('p');
    asked[0]!.answer({ stamp: 's1', changed: false });
    const e1 = await first;
    // Two checks out at once from s1; the later-asked one is answered first, with a change.
    const slow = epochs.current('p');
    const fast = epochs.current('p');
    asked[2]!.answer({ stamp: 's3', changed: true });
    const e2 = await fast;
    asked[1]!.answer({ stamp: 's2', changed: false });
    // The slow check saw nothing up to s2, but the change found up to s3 stands.
    expect(await slow).toBe(e2);
    expect(e2).not.toBe(e1);
    const next = epochs.current('p');
    expect(asked[3]!.since).toBe('s3');
    asked[3]!.answer({ stamp: 's4', changed: false });
    expect(await next).toBe(e2);
  });

  it('a change found by a check asked before another change was found moves the epoch again', async () => {
    const { epochs, asked } = scripted();
    const first = epochs.current('p');
    asked[0]!.answer({ stamp: 's1', changed: false });
    await first;
    const one = epochs.current('p');
    const two = epochs.current('p');
    asked[1]!.answer({ stamp: 's2', changed: true });
    const e2 = await one;
    // What is kept under e2 may predate the change this later answer found.
    asked[2]!.answer({ stamp: 's3', changed: true });
    expect(await two).not.toBe(e2);
  });
});
