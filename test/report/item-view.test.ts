// The item view (src/report/model.ts): built once per item by buildModel, with the kind, section,
// changes and words every renderer shows.

import { describe, expect, it } from 'vitest';
import { buildModel, itemView, statusWords, viewOf } from '../../src/report/model.js';
import { fixture, mixedWithPersonas, persona } from './fixtures.js';

describe('ItemView', () => {
  it('is built once per item, on its first use: the sections list exactly the items viewed, each under its view\'s section', () => {
    const run = mixedWithPersonas();
    const model = buildModel(run);
    const items = [...run.fixtures, ...run.personas];
    expect(model.views.size).toBe(0);
    for (const item of items) {
      const v = viewOf(model, item);
      expect(v).toBe(model.views.get(item));
      expect(viewOf(model, item)).toBe(v);
      expect(model.sections[v.section]).toContain(item);
      expect(v.status).toEqual(statusWords(item));
      expect(v.kind).toBe('turns' in item ? 'script' : 'fixture');
    }
  });

  it('says a fixture and a script apart by kind, with their changes and words', () => {
    const slower = { baselineMs: 1200, latencyMs: 2940 };
    const f = itemView(fixture('f', { drift: { reply: 'different', route: 'same', verdict: 'still_passing' }, slower }));
    expect([f.kind, f.section, f.icon, f.verdict]).toEqual(['fixture', 'changed', '✅', 'pass']);
    expect(f.changes.map((c) => c.dimension)).toEqual(['reply', 'slower']);
    expect(f.drift).toEqual(['still passing', 'reply changed', 'slower: 1.2 s → 2.9 s']);
    const p = itemView(persona('p'));
    expect([p.kind, p.section, p.changes.length]).toEqual(['script', 'unchanged', 0]);
  });
});
