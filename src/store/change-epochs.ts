/**
 * A project's change epoch: a number that moves whenever the store finds that something of the
 * project changed. What is read after `current` resolved, kept with the number it gave, is current
 * while a later `current` gives the same number. Each project keeps one stamp, the newest found
 * current, and checks against it alone: every page and answer kept with a stamp of its own would
 * ask a turn's check statement for as many stamps as there are kept values in use.
 */
import type { ChangeStamp } from './store.js';

interface ProjectEpoch {
  /** The newest stamp a check found nothing changed up to (undefined before the first check). */
  stamp: string | undefined;
  epoch: number;
}

export class ChangeEpochs {
  private readonly projects = new Map<string, ProjectEpoch>();

  constructor(private readonly stampOf: (project: string, since?: string) => Promise<ChangeStamp>) {}

  /** The project's epoch now, found by a check taken after this call. */
  async current(project: string): Promise<number> {
    let state = this.projects.get(project);
    if (state === undefined) this.projects.set(project, (state = { stamp: undefined, epoch: 0 }));
    const asked = state.epoch;
    const { stamp, changed } = await this.stampOf(project, state.stamp);
    if (changed) {
      // Even when another check moved the epoch meanwhile: this change may be a later one.
      state.epoch += 1;
      state.stamp = stamp;
    } else if (state.epoch === asked) {
      // Nothing changed from the stamp asked up to this one: what is kept under the epoch is current at both.
      state.stamp = stamp;
    }
    return state.epoch;
  }
}
