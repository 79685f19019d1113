import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselinePath, baselineSchemas, formatIssue, isValidLabel, LABEL_RE, serializeBaseline } from '../../src/suite/index.js';
import { checkBaselineFile } from '../../src/suite/baselines.js';
import { loadYamlPackage } from '../../src/suite/yaml/package.js';
import type { Baseline } from '../../src/types.js';
import { B, brief, C, F, load } from './helpers.js';

describe('labels', () => {
  it.each([
    ['refund-policy', true],
    ['a', true],
    ['0', true],
    ['v1.2_final-3', true],
    ['A'.repeat(80), true],
    ['A'.repeat(81), false],
    ['', false],
    ['-dash', false],
    ['.hidden', false],
    ['_under', false],
    ['../../etc/passwd', false],
    ['a/b', false],
    ['a\\b', false],
    ['has space', false],
    ['émoji', false],
    ['line\nbreak', false],
  ])('%j valid: %s', (label, valid) => {
    expect(isValidLabel(label)).toBe(valid);
    expect(LABEL_RE.test(label)).toBe(valid);
  });
});

describe('baselinePath', () => {
  it('accepts a valid label and stays inside the folder', () => {
    expect(baselinePath('.agent-replay/baselines', 'refund-policy')).toBe(path.join('.agent-replay/baselines', 'refund-policy.json'));
    expect(baselinePath('/repo/b', 'a..b')).toBe('/repo/b/a..b.json');
  });

  it.each(['../../etc/passwd', '..', '../x', '/abs', 'a/../../b', '', '.x'])('refuses %j', (label) => {
    expect(() => baselinePath('/repo/.agent-replay/baselines', label)).toThrow(/invalid label/);
  });
});

describe('serializeBaseline', () => {
  it('writes a stable key order, 2-space JSON and a trailing newline', () => {
    // Keys deliberately out of order: the output order must not depend on the input's.
    const b = {
      commit: 'abc123',
      verdict: 'pass',
      route: { stage: 'policy', conversation: 'refunds' },
      acceptedAt: '2026-11-30T10:00:00Z',
      reply: 'Refunds within "30 days".\nThanks!',
      label: 'refund-policy',
    } as Baseline;
    expect(serializeBaseline(b)).toBe(
      `{
  "label": "refund-policy",
  "reply": "Refunds within \\"30 days\\".\\nThanks!",
  "route": {
    "conversation": "refunds",
    "stage": "policy"
  },
  "verdict": "pass",
  "acceptedAt": "2026-11-30T10:00:00Z",
  "commit": "abc123"
}
`,
    );
  });

  it('writes null route and commit, and round-trips through the schema', () => {
    const b: Baseline = { label: 'x', reply: '', route: null, verdict: 'fail', acceptedAt: 't', commit: null };
    const text = serializeBaseline(b);
    expect(text).toBe('{\n  "label": "x",\n  "reply": "",\n  "route": null,\n  "verdict": "fail",\n  "acceptedAt": "t",\n  "commit": null\n}\n');
    expect(baselineSchemas().baselineSchema.parse(JSON.parse(text))).toEqual(b);
  });
});

describe('baselineSchema', () => {
  it('is strict and allows only pass or fail', () => {
    const { baselineSchema } = baselineSchemas();
    const ok = { label: 'x', reply: 'r', route: { conversation: 'c', stage: 's' }, verdict: 'pass', acceptedAt: 't', commit: 'sha' };
    expect(baselineSchema.safeParse(ok).success).toBe(true);
    expect(baselineSchema.safeParse({ ...ok, verdict: 'not_evaluated' }).success).toBe(false);
    expect(baselineSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
    expect(baselineSchema.safeParse({ ...ok, route: { conversation: 'c' } }).success).toBe(false);
    expect(baselineSchema.safeParse({ ...ok, commit: undefined }).success).toBe(false);
  });
});

describe('formatIssue', () => {
  it('prints file:line:column, or less when the position is unknown', () => {
    expect(formatIssue({ file: 'a/b.yml', line: 12, column: 3, message: 'm', fix: 'f' })).toBe('a/b.yml:12:3: m\n  fix: f');
    expect(formatIssue({ file: 'a/b.yml', line: 12, column: null, message: 'm', fix: 'f' })).toBe('a/b.yml:12: m\n  fix: f');
    expect(formatIssue({ file: 'a', line: null, column: null, message: 'm', fix: 'f' })).toBe('a: m\n  fix: f');
  });
});

describe('a time split read back (docs/traces.md, "Time")', () => {
  beforeAll(loadYamlPackage);
  const text = (tools: string): string =>
    `{\n  "label": "a",\n  "reply": "hi",\n  "route": null,\n  "verdict": "pass",\n  "time": {\n    "modelMs": 1,\n    "toolMs": 9,\n    "otherMs": 0,\n    "tools": ${tools}\n  },\n  "acceptedAt": "x",\n  "commit": null\n}\n`;

  it('keeps a tool named __proto__ as its own key, beside constructor and toString', () => {
    const r = checkBaselineFile('b/a.json', 'a', text('{ "__proto__": 3, "constructor": 4, "toString": 2 }'));
    expect(r.errors).toEqual([]);
    const tools = r.baseline?.time?.tools ?? {};
    expect(Object.entries(tools)).toEqual([['__proto__', 3], ['constructor', 4], ['toString', 2]]);
    expect(Object.getPrototypeOf(tools)).toBe(Object.prototype);
    // Written back the same.
    expect(serializeBaseline(r.baseline!)).toContain('"tools": {\n      "__proto__": 3,\n      "constructor": 4,\n      "toString": 2\n    }');
  });

  it('checks the __proto__ tool\'s time like any other, at its line', () => {
    const r = checkBaselineFile('b/a.json', 'a', text('{ "__proto__": -1 }'));
    expect(r.baseline).toBeNull();
    expect(r.errors.map((e) => [e.line, e.message])).toEqual([[10, 'baseline: time.tools.__proto__ must be at least 0, found the number -1']]);
    expect(checkBaselineFile('b/a.json', 'a', text('{ "x": -1 }')).errors.map((e) => [e.line, e.message])).toEqual([[10, 'baseline: time.tools.x must be at least 0, found the number -1']]);
  });
});

describe('a baseline edited by hand: the fix writes the line as JSON writes it', () => {
  beforeAll(loadYamlPackage);
  const text = (latency: string): string => `{\n  "label": "a",\n  "reply": "hi",\n  "route": null,\n  "verdict": "pass",\n  "latencyMs": ${latency},\n  "acceptedAt": "x",\n  "commit": null\n}\n`;

  it.each([
    ['"840"', 'write the number without quotes: "latencyMs": 840'],
    ['"ten"', 'write the number in digits (latencyMs is a number of at least 0): "latencyMs": 10'],
    ['"fast"', 'change latencyMs to a number of at least 0, e.g. "latencyMs": 1000 (1 second)'],
  ])('latencyMs: %s', (latency, fix) => {
    const r = checkBaselineFile('b/a.json', 'a', text(latency));
    expect(r.errors.map((e) => [e.line, e.fix.split('; or ')[0]])).toEqual([[6, fix]]);
  });
});

describe('a baseline nesting a hundred thousand levels (docs/fixtures.md, "Baselines")', () => {
  const N = 100_000;
  const deepFile = (label: string): string => `{\n  "label": "${label}",\n  "reply": ${'['.repeat(N)}${']'.repeat(N)},\n  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "x",\n  "commit": null\n}\n`;

  it('is refused at the level past 320, placed by its text, before any parser that recurses', () => {
    const r = checkBaselineFile('b/a.json', 'a', deepFile('a'));
    expect(r.baseline).toBeNull();
    expect(r.errors.map((e) => [e.line, e.column, e.message])).toEqual([[3, 331, 'baseline nests deeper than 320 levels of lists and objects here, which acceptance never writes']]);
  });

  it('two such files in a suite are two errors: the yaml document that placed the first ran the stack to its edge, and the second crashed the process (RegExpCompiler out of memory)', async () => {
    const r = await load({ [C]: '', [`${F}/a.yml`]: 'fixtures:\n  - { label: a, message: hi }\n  - { label: b, message: hi }\n', [`${B}/a.json`]: deepFile('a'), [`${B}/b.json`]: deepFile('b') });
    expect(brief(r.errors)).toEqual([
      '.agent-replay/baselines/a.json:3: baseline nests deeper than 320 levels of lists and objects here, which acceptance never writes',
      '.agent-replay/baselines/b.json:3: baseline nests deeper than 320 levels of lists and objects here, which acceptance never writes',
    ]);
  });
});
