// What the reports say about a turn's spans (docs/traces.md, "In the reports"): the mark on a tool
// call seen only in spans, the span counts and the time split. Read from the record only.

import type { SpanCounts, TimeSplit, ToolCall } from '../types.js';
import { durationText, plural, thousands } from '../words.js';

/**
 * " (from trace)" for a call seen only in the turn's spans; "" for one the response reported,
 * alone or confirmed by a span (`source: both` is shown as the response's: the response's word is
 * the one kept) and for records before traces (no `source`).
 */
export function sourceMark(call: Pick<ToolCall, 'source'>): string {
  return call.source === 'trace' ? ' (from trace)' : '';
}

/** "12 spans (2 ignored, 1 late)", "3 spans", "no spans"; the parts that are 0 are left out. */
export function spanCountsText(s: SpanCounts): string {
  const head = s.count === 0 ? 'no spans' : plural(s.count, 'span', 'spans');
  const extra = [s.ignored > 0 ? `${thousands(s.ignored)} ignored` : null, s.late > 0 ? `${thousands(s.late)} late` : null].filter((x) => x !== null);
  return extra.length === 0 ? head : `${head} (${extra.join(', ')})`;
}

/** "model 1.2 s · tool 400 ms · other 90 ms". */
export function timeSplitText(t: TimeSplit): string {
  return `model ${durationText(t.modelMs)} · tool ${durationText(t.toolMs)} · other ${durationText(t.otherMs)}`;
}
