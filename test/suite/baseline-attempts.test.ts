// A baseline's attempts (docs/statistics.md, "A baseline's attempts"): read from real files in a
// temporary suite, older baselines counted as one attempt, hand edits that contradict the verdict
// refused at their line (each file's, none hiding another's), and the stable written form.

import { describe, expect, it } from 'vitest';
import { baselineAttemptsOf } from '../../src/evaluate/attempts.js';
import { checkBaselineFile, serializeBaseline } from '../../src/suite/baselines.js';
import type { Baseline, PersonaBaseline } from '../../src/types.js';
import { B, brief, F, load } from './helpers.js';

const FIXTURES = 'fixtures:\n  - { label: a, message: hi }\n  - { label: b, message: hi }\n  - { label: c, message: hi }\n';
const base = (label: string, verdict: 'pass' | 'fail', attempts?: { passed: number; total: number }): Baseline => ({
  label,
  reply: 'hello',
  route: null,
  verdict,
  ...(attempts !== undefined ? { attempts } : {}),
  acceptedAt: '2026-12-01T00:00:00Z',
  commit: null,
});

describe("a baseline's attempts", () => {
  it('are read from the file; a baseline without them counts as 1 of 1 (pass) or 0 of 1 (fail)', async () => {
    const r = await load({
      [`${F}/f.yml`]: FIXTURES,
      [`${B}/a.json`]: serializeBaseline(base('a', 'pass', { passed: 9, total: 10 })),
      [`${B}/b.json`]: serializeBaseline(base('b', 'pass')),
      [`${B}/c.json`]: serializeBaseline(base('c', 'fail')),
    });
    expect(r.errors).toEqual([]);
    const stored = r.suite!.baselines;
    expect(stored.get('a')?.attempts).toEqual({ passed: 9, total: 10 });
    expect(stored.get('b')?.attempts).toBeUndefined();
    expect(['a', 'b', 'c'].map((l) => baselineAttemptsOf(stored.get(l)!))).toEqual([
      { passed: 9, total: 10 },
      { passed: 1, total: 1 },
      { passed: 0, total: 1 },
    ]);
  });

  it('that contradict the verdict or count more passes than attempts are refused at their line, each file\'s error said', async () => {
    const r = await load({
      [`${F}/f.yml`]: FIXTURES,
      [`${B}/a.json`]: serializeBaseline(base('a', 'pass', { passed: 0, total: 3 })),
      [`${B}/b.json`]: serializeBaseline(base('b', 'fail', { passed: 3, total: 3 })),
      [`${B}/c.json`]: serializeBaseline(base('c', 'pass', { passed: 4, total: 3 })),
    });
    expect(brief(r.errors)).toEqual([
      `${B}/a.json:7: baseline: 0 of 3 attempts passed, which contradicts the accepted verdict "pass"`,
      `${B}/b.json:7: baseline: 3 of 3 attempts passed, which contradicts the accepted verdict "fail"`,
      `${B}/c.json:7: baseline: attempts.passed 4 is more than attempts.total 3`,
    ]);
    expect(r.errors[0]!.fix).toMatch(/^remove the attempts block \(the baseline then counts as one attempt\), or fix it by hand/);
  });

  it('must be whole numbers with at least one attempt', () => {
    const text = (attempts: string) =>
      `{\n  "label": "a",\n  "reply": "x",\n  "route": null,\n  "verdict": "pass",\n  "attempts": ${attempts},\n  "acceptedAt": "t",\n  "commit": null\n}\n`;
    for (const bad of ['{ "passed": 1, "total": 0 }', '{ "passed": 1.5, "total": 3 }', '{ "passed": -1, "total": 3 }', '{ "passed": 1 }', '{ "passed": 1, "total": 3, "extra": 1 }', '{ "passed": 1, "total": 10000000000 }']) {
      const r = checkBaselineFile('a.json', 'a', text(bad));
      expect(r.baseline, bad).toBeNull();
      expect(r.errors.map((e) => e.line), bad).toEqual([6]);
      expect(r.errors[0]!.message, bad).toMatch(/^baseline: .*attempts/);
    }
    expect(checkBaselineFile('a.json', 'a', text('{ "passed": 1, "total": 3 }')).baseline?.attempts).toEqual({ passed: 1, total: 3 });
  });

  it('are written right after the verdict, and only when present (older baselines keep their bytes)', () => {
    expect(serializeBaseline(base('a', 'pass', { passed: 9, total: 10 }))).toBe(
      '{\n  "label": "a",\n  "reply": "hello",\n  "route": null,\n  "verdict": "pass",\n  "attempts": {\n    "passed": 9,\n    "total": 10\n  },\n  "acceptedAt": "2026-12-01T00:00:00Z",\n  "commit": null\n}\n',
    );
    expect(serializeBaseline(base('a', 'pass'))).not.toContain('attempts');
  });

  it("are a persona baseline's too, checked the same way", () => {
    const persona = (verdict: 'pass' | 'fail', attempts: { passed: number; total: number }): PersonaBaseline => ({
      label: 'p',
      kind: 'persona',
      transcript: [{ message: 'hi', reply: 'hello', route: null }],
      visited: [],
      outcome: null,
      verdict,
      attempts,
      acceptedAt: '2026-12-01T00:00:00Z',
      commit: null,
    });
    const ok = checkBaselineFile('p.json', 'p', serializeBaseline(persona('fail', { passed: 1, total: 5 })));
    expect(ok.errors).toEqual([]);
    expect(ok.persona).toEqual(persona('fail', { passed: 1, total: 5 }));
    const edited = checkBaselineFile('p.json', 'p', serializeBaseline(persona('fail', { passed: 5, total: 5 })));
    expect(edited.persona ?? null).toBeNull();
    expect(edited.errors.map((e) => `${e.line}: ${e.message}`)).toEqual(['15: persona baseline: 5 of 5 attempts passed, which contradicts the accepted verdict "fail"']);
  });
});
