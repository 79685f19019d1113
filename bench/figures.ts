// How the bench writes a figure that the product also writes: a percentage as the reports and the
// docs do ("2.7%", docs/statistics.md, "The run's pass-rate line"), so that a row reads as the
// figures in docs/performance.md do.

/**
 * A share as a percentage: `digits` decimals, trailing zeros dropped, no space before `%` (0.027 is
 * "2.7%", 0.0148 "1.48%", 0.02 "2%"). The meaning ladder's row keeps hundredths: its target is 2%.
 */
export function percentFigure(share: number, digits = 1): string {
  return `${Number((share * 100).toFixed(digits))}%`;
}
