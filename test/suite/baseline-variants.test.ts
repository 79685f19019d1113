// A baseline's variants (docs/meaning.md, "Variants"): read from real files in a temporary suite, on
// a fixture's baseline and on each turn of a persona script's; older baselines read with none; a
// misspelt key, a wrong type or a hand-made list longer than 10 refused at its line, each file's
// error said; the stable written form puts them right under the reply, and only when there are any.

import { describe, expect, it } from 'vitest';
import { serializeBaseline } from '../../src/suite/baselines.js';
import type { Baseline, PersonaBaseline } from '../../src/types.js';
import { B, brief, F, load } from './helpers.js';

const FIXTURES = 'fixtures:\n  - { label: a, message: hi }\n  - { label: b, message: hi }\n  - { label: c, message: hi }\n  - { label: d, message: hi }\n';
const PERSONAS = 'personas:\n  - { label: p, opening: hi, expect: { conversations: [c] } }\n  - { label: q, opening: hi, expect: { conversations: [c] } }\n';
const P = '.agent-replay/personas';

const base = (label: string, variants?: string[]): Baseline => ({
  label,
  reply: 'Refunds are accepted within 30 days.',
  ...(variants !== undefined ? { variants } : {}),
  route: null,
  verdict: 'pass',
  acceptedAt: '2026-12-01T00:00:00Z',
  commit: null,
});

const persona = (label: string, variants: (string[] | undefined)[]): PersonaBaseline => ({
  label,
  kind: 'persona',
  transcript: variants.map((v, i) => ({ message: i === 0 ? null : `message ${i}`, reply: `reply ${i}`, ...(v !== undefined ? { variants: v } : {}), route: null })),
  visited: [],
  outcome: null,
  verdict: 'pass',
  acceptedAt: '2026-12-01T00:00:00Z',
  commit: null,
});

/** A fixture baseline's text with `line` (ending in a newline) right after the reply. */
const withLine = (label: string, line: string) => `{\n  "label": "${label}",\n  "reply": "x",\n${line}  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "t",\n  "commit": null\n}\n`;

describe("a baseline's variants", () => {
  it('are read from the file, on a fixture and on each turn of a script; older baselines have none', async () => {
    const r = await load({
      [`${F}/f.yml`]: FIXTURES,
      [`${P}/p.yml`]: PERSONAS,
      [`${B}/a.json`]: serializeBaseline(base('a', ['You can return items within 30 days.', 'Returns: 30 days.'])),
      [`${B}/b.json`]: serializeBaseline(base('b')),
      [`${B}/p.json`]: serializeBaseline(persona('p', [undefined, ['Hello again'], undefined])),
      [`${B}/q.json`]: serializeBaseline(persona('q', [undefined, undefined])),
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.baselines.get('a')?.variants).toEqual(['You can return items within 30 days.', 'Returns: 30 days.']);
    expect(r.suite!.baselines.get('b')).not.toHaveProperty('variants');
    expect(r.suite!.personaBaselines.get('p')?.transcript.map((t) => t.variants)).toEqual([undefined, ['Hello again'], undefined]);
    expect(r.suite!.personaBaselines.get('q')?.transcript.every((t) => !('variants' in t))).toBe(true);
  });

  it('a misspelt key, a wrong type and a list longer than 10 are refused at their lines, each file said', async () => {
    const eleven = JSON.stringify(Array.from({ length: 11 }, (_, i) => `wording ${i}`));
    const turns = persona('p', [undefined, Array.from({ length: 12 }, (_, i) => `turn wording ${i}`)]);
    const r = await load({
      [`${F}/f.yml`]: FIXTURES,
      [`${P}/p.yml`]: PERSONAS,
      [`${B}/a.json`]: withLine('a', '  "variant": ["y"],\n'),
      [`${B}/b.json`]: withLine('b', '  "variants": "y",\n'),
      [`${B}/c.json`]: withLine('c', `  "variants": ${eleven},\n`),
      [`${B}/d.json`]: withLine('d', '  "variants": ["y", 2],\n'),
      [`${B}/p.json`]: serializeBaseline(turns),
    });
    expect(brief(r.errors)).toEqual([
      `${B}/a.json:4: baseline: unknown key "variant"; allowed keys: label, message, persona, reply, variants, route, verdict, attempts, judge, latencyMs, usage, time, acceptedAt, commit`,
      `${B}/b.json:4: baseline: variants must be a list, found the string "y"`,
      `${B}/c.json:4: baseline: variants lists 11 replies; a baseline keeps at most 10 (the newest first)`,
      `${B}/d.json:4: baseline: variants[1] must be a string, found the number 2`,
      `${B}/p.json:13: persona baseline: transcript[1].variants lists 12 replies; a baseline keeps at most 10 (the newest first)`,
    ]);
    expect(r.errors[0]!.fix).toContain('did you mean "variants"?');
    expect(r.errors[2]!.fix).toMatch(/^remove the last 1 \(the oldest\), or fix it by hand/);
    expect(r.errors[4]!.fix).toMatch(/^remove the last 2 \(the oldest\)/);
  });

  it('a script turn with a misspelt key lists the turn keys it may have', async () => {
    const text = serializeBaseline(persona('p', [undefined, ['Hello again']])).replace('"variants"', '"variantz"');
    const r = await load({ [`${F}/f.yml`]: FIXTURES, [`${P}/p.yml`]: PERSONAS, [`${B}/p.json`]: text });
    expect(brief(r.errors)).toEqual([`${B}/p.json:13: persona baseline: unknown key "variantz" in transcript[1]; allowed keys: message, reply, variants, route, source, time`]);
  });

  it('are written right under the reply, and only when there are any (a baseline without keeps its bytes)', () => {
    expect(serializeBaseline(base('a', ['Returns: 30 days.']))).toBe(
      '{\n  "label": "a",\n  "reply": "Refunds are accepted within 30 days.",\n  "variants": [\n    "Returns: 30 days."\n  ],\n  "route": null,\n  "verdict": "pass",\n  "acceptedAt": "2026-12-01T00:00:00Z",\n  "commit": null\n}\n',
    );
    expect(serializeBaseline(base('a', []))).toBe(serializeBaseline(base('a')));
    expect(serializeBaseline(base('a'))).not.toContain('variants');
    const p = serializeBaseline(persona('p', [undefined, ['Hi again']]));
    expect(p).toContain('"message": "message 1",\n      "reply": "reply 1",\n      "variants": [\n        "Hi again"\n      ],\n      "route": null\n');
    expect(p.match(/variants/g)).toHaveLength(1);
  });
});
