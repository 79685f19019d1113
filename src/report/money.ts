// The one money formatter. Amounts are estimates in USD, rounded by evaluate/ to a millionth of a
// dollar; they are shown exactly (at least two decimals, trailing zeros dropped beyond that), so a
// refusal at $0.105 against a $0.10 cap never reads "$0.10 is above the cap $0.10".

import { groupDigits } from '../words.js';

const MAX_DIGITS = 6;

function withDigits(value: number, digits: number): string {
  const fixed = Math.abs(value).toFixed(digits);
  const [int = '0', frac = ''] = fixed.split('.');
  const kept = frac.replace(/0+$/, '').padEnd(2, '0');
  return `${value < 0 ? '-' : ''}$${groupDigits(int)}.${kept}`;
}

/** "$0.10", "$0.105", "$1,234.50"; "< $0.000001" for a positive amount too small to show; "$?" when not a number. */
export function formatUsd(value: number, digits = MAX_DIGITS): string {
  if (!Number.isFinite(value)) return '$?';
  if (value > 0 && Number(value.toFixed(digits)) === 0) return `< $0.${'0'.repeat(digits - 1)}1`;
  return withDigits(value, digits);
}

/**
 * An amount for a machine to read (the Action's `estimated-cost` output, docs/action.md, "Outputs"):
 * a plain decimal in USD without the sign, at least three decimals ("0.060") and as many more as
 * the amount has (evaluate/ rounds it to a millionth): "0.00024", never "0.000" beside a real cost.
 */
export function usdDecimal(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  for (let digits = 3; digits < MAX_DIGITS; digits++) {
    const fixed = value.toFixed(digits);
    if (Number(fixed) === value) return fixed;
  }
  return value.toFixed(MAX_DIGITS);
}

/**
 * Two amounts that are compared on screen (an estimate against its cap): each shown exactly, with
 * more decimals when needed so that different amounts never read the same.
 */
export function formatUsdPair(a: number, b: number): [string, string] {
  for (let digits = MAX_DIGITS; digits <= 12; digits++) {
    const pair: [string, string] = [formatUsd(a, digits), formatUsd(b, digits)];
    if ((pair[0] === pair[1]) === (a === b)) return pair;
  }
  return [`$${a}`, `$${b}`];
}
