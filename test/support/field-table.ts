/** The table of one kind of record's classified fields, as docs/data-protection.md prints it. */
import { FIELD_CLASSES, MASKS, type ClassifiedField } from '../../src/contract/field-classes.js';

export function fieldTable(fields: readonly ClassifiedField[]): string {
  const rows = fields.map((f) => {
    const cls = f.class === 'keep' ? 'shown (not covered by `*`)' : `${f.class} (\`${FIELD_CLASSES[f.class].scope}\`)`;
    const mask = f.class === 'keep' ? '' : `\`${MASKS[f.mask]}\``;
    return `| \`${f.path}\` | ${cls} | ${mask} |`;
  });
  return ['| path | class (scope) | shown without the scope as |', '|---|---|---|', ...rows].join('\n');
}
