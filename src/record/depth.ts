// How deep untrusted JSON nests, found without recursion: the readers after it (zod's schema,
// JSON.stringify) recurse once a level, and a hundred thousand levels (a few hundred kilobytes of
// `[`) would exhaust their stack (docs/results-json.md, "When a results file cannot be read").

import { MAX_JSON_DEPTH } from '../suite/json-depth.js';

/** The most levels of arrays and objects a results file may nest, as a baseline file (suite/json-depth.ts). */
export const MAX_RECORD_DEPTH = MAX_JSON_DEPTH;

/**
 * The path to the first array or object nested deeper than `max` levels (the top value is level
 * 1), or null when none is. Walked with a stack of its own.
 */
export function pathDeeperThan(value: unknown, max: number): (string | number)[] | null {
  interface Frame {
    keys: string[] | null;
    values: readonly unknown[];
    next: number;
  }
  const frameOf = (v: object): Frame => (Array.isArray(v) ? { keys: null, values: v, next: 0 } : { keys: Object.keys(v), values: Object.values(v), next: 0 });
  if (value === null || typeof value !== 'object') return null;
  const frames: Frame[] = [frameOf(value)];
  while (frames.length > 0) {
    const top = frames[frames.length - 1] as Frame;
    if (top.next >= top.values.length) {
      frames.pop();
      continue;
    }
    const child = top.values[top.next++];
    if (child === null || typeof child !== 'object') continue;
    if (frames.length >= max) return frames.map((f) => (f.keys === null ? f.next - 1 : (f.keys[f.next - 1] as string)));
    frames.push(frameOf(child));
  }
  return null;
}
