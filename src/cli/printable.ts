/** Text for one terminal line, whatever a stored value holds. */

import { UNPRINTABLE as CONTROL } from '../contract/project-id.js';

export { CONTROL };
const CONTROL_ALL = new RegExp(CONTROL.source, 'gu');

/** The text with every control or invisible character as a \u escape, so a value can never forge a line or a column. */
export function printable(text: string): string {
  return text.replace(CONTROL_ALL, (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}
