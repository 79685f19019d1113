// Reading a score out of what a judge model wrote. Pure: text in, JudgeResult out.
//
// Models asked for "only JSON" still wrap it in code fences or in a sentence. We read, in order:
// the whole text as JSON (then that object alone decides); else the content of its ``` fences
// (then those alone); else the balanced {...} of the prose, outermost only, the first that parses
// and carries a score. An object's own score decides: `{"score": 1.5, "example": {"score": 0.9}}`
// is a score of 1.5 (outside the scale), not 0.9; only an object without one is looked into
// (`{"result": {"score": 0.65}}`). A score must be a number (or a numeric string) in [0, 1]: it is
// never clamped, because a model that answers 1.4 did not follow the scale and its number means
// nothing on ours.

import type { JudgeResult } from '../types.js';

const MAX_RATIONALE_CHARS = 200;
const NO_RATIONALE = '(no rationale given)';
const SNIPPET_CHARS = 80;
const MAX_SCANNED_CHARS = 20_000;

type Candidate = Record<string, unknown>;

function isObject(value: unknown): value is Candidate {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Every outermost balanced `{...}` in `text`, in order, respecting JSON strings (one inside another is part of it). */
function balancedObjects(input: string): string[] {
  // Judge replies are short; the bound keeps the quadratic worst case small.
  const text = input.slice(0, MAX_SCANNED_CHARS);
  const found: string[] = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    let escaped = false;
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (ch === '\\') escaped = true;
        else if (ch === '"') inString = false;
        continue;
      }
      if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}') {
        depth--;
        if (depth === 0) {
          found.push(text.slice(start, i + 1));
          // The next object starts after this one: none nested in it is read on its own.
          start = i;
          break;
        }
      }
    }
  }
  return found;
}

/** Objects that the text may mean, most explicit first (also how the simulator's answer is read). */
export function jsonCandidates(text: string): Record<string, unknown>[] {
  return candidates(text);
}

function candidates(text: string): Candidate[] {
  // The whole answer is one object: it alone is what the model said.
  const whole = tryJson(text);
  if (isObject(whole)) return [whole];
  const out: Candidate[] = [];
  const push = (value: unknown): void => {
    if (isObject(value)) out.push(value);
  };
  for (const fence of text.matchAll(/```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const body = fence[1]?.trim() ?? '';
    push(tryJson(body));
  }
  // Fenced JSON is what the model set apart as its answer; the prose is read only without it.
  if (out.length > 0) return out;
  for (const chunk of balancedObjects(text)) push(tryJson(chunk));
  return out;
}

function field(obj: Candidate, name: string): unknown {
  if (name in obj) return obj[name];
  const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : obj[key];
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** One line of rationale: first non-empty line, trimmed, at most 200 characters. */
export function oneLine(value: unknown, max = MAX_RATIONALE_CHARS): string {
  if (typeof value !== 'string') return NO_RATIONALE;
  const line = value
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (line === undefined) return NO_RATIONALE;
  return line.length > max ? `${line.slice(0, max - 1)}\u2026` : line;
}

/** The start of a text, on one line, for a reason string. */
export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}\u2026` : flat;
}

function formatScoreValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
}

/** A score from one object, or the problem with it; null when the object carries no score. */
function fromObject(obj: Candidate): JudgeResult | null {
  const raw = field(obj, 'score');
  if (raw === undefined) return null;
  const score = toNumber(raw);
  if (score === null) return { ok: false, reason: `score ${formatScoreValue(raw)} is not a number` };
  if (score < 0 || score > 1) return { ok: false, reason: `score ${score} is outside [0,1]` };
  const rationale = field(obj, 'rationale') ?? field(obj, 'reason') ?? field(obj, 'explanation');
  return { ok: true, score, rationale: oneLine(rationale) };
}

/**
 * The score an object carries: its own `score` when it has one (right or wrong, it decides), else
 * the first object nested in it that has one (a model that wrapped its answer: {"result": {...}}).
 */
function scoreIn(obj: Candidate, depth = 0): JudgeResult | null {
  const own = fromObject(obj);
  if (own !== null || depth >= 4) return own;
  for (const value of Object.values(obj)) {
    if (!isObject(value)) continue;
    const nested = scoreIn(value, depth + 1);
    if (nested !== null) return nested;
  }
  return null;
}

export function parseJudgeOutput(text: string): JudgeResult {
  const objects = candidates(text.trim());
  let problem: string | null = null;
  for (const obj of objects) {
    const result = scoreIn(obj);
    if (result === null) continue;
    if (result.ok) return result;
    problem ??= result.reason;
  }
  return { ok: false, reason: problem ?? `no usable score in output: "${snippet(text)}"` };
}

/** A score from an object the provider already decoded (an Anthropic tool call's `input`). */
export function parseJudgeObject(value: unknown): JudgeResult {
  const result = isObject(value) ? fromObject(value) : null;
  return result ?? { ok: false, reason: `no usable score in output: "${snippet(JSON.stringify(value) ?? String(value))}"` };
}
