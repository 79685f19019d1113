import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/report/model.js';
import { renderComment } from '../../src/report/markdown.js';
import { newResultsToAccept } from '../../src/report/to-accept.js';
import { ctx, mixed, mixedMany } from './fixtures.js';

// The terminal's next step after a run (docs/cli.md, "What each command does") counts what the
// comment's "To accept" line counts, on the terminal summary's model, building no view into it.
describe('newResultsToAccept', () => {
  it('counts what the comment\'s To accept line counts', () => {
    const run = mixed();
    const said = /\*\*To accept\*\* the ([\d,]+) new or changed pass\/fail results/.exec(renderComment(run, ctx));
    expect(said).not.toBeNull();
    expect(newResultsToAccept(run)).toBe(Number(said![1]!.replace(/,/g, '')));
  });

  it('keeps no view of its own in the model it is given (a view per item of a large run raised the 20,000-fixture peak RSS by 20 MB)', () => {
    const run = mixedMany(600);
    const model = buildModel(run);
    const before = model.views.size;
    const n = newResultsToAccept(run, model);
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(newResultsToAccept(run));
    expect(model.views.size).toBe(before);
  });
});
