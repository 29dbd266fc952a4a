/** A rule's condition in words: its attribute path, operator and value as an analyst reads them. */
import type { RuleOperator } from '../../src/contract/enums.js';
import { instant } from './format.js';

/** `Customer/identityData/residence` as `customer.identityData.residence`. */
export function pathText(path: string): string {
  const [root = '', ...rest] = path.split('/').filter((s) => s !== '');
  return [root.charAt(0).toLowerCase() + root.slice(1), ...rest].join('.');
}

const OPERATORS: Record<RuleOperator, string> = {
  $noop: 'is not checked',
  $eq: 'is',
  $ne: 'is not',
  $lt: 'is less than',
  $lte: 'is at most',
  $gt: 'is more than',
  $gte: 'is at least',
  $in: 'is one of',
  $nin: 'is none of',
  $exists: 'is present',
};

export function operatorText(operator: RuleOperator | undefined): string {
  return operator === undefined ? 'compared with' : OPERATORS[operator];
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

function scalarText(value: boolean | string | number): string {
  if (typeof value === 'number') return NUMBER.format(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (DATE_TIME.test(value)) return instant(value);
  return value === '' ? '(empty)' : value;
}

/** A rule value: numbers grouped, booleans as words, instants in UTC, a list joined with commas. */
export function valueText(value: boolean | string | number | (boolean | string | number)[] | null | undefined): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return value.length === 0 ? '(no values)' : value.map(scalarText).join(', ');
  return scalarText(value);
}
