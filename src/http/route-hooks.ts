/** A route option's hooks as a list, so a hook added in onRoute goes beside the route's own. */
export function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
}
