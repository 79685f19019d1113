// The terminal's line under the headline of an interrupted run counts what finished in words that
// agree with the count, as the comment's does (docs/cli.md, "Interrupted runs").

import { describe, expect, it } from 'vitest';
import { renderComment, renderTerminal } from '../../src/report/index.js';
import { ctx, mixed, persona, run } from './fixtures.js';

describe('an interrupted run with one fixture finished', () => {
  it('says "the 1 fixture that finished is counted" in the terminal, as the comment says it', () => {
    const record = run(mixed().fixtures.slice(0, 1), { interrupted: true });
    expect(renderComment(record, ctx)).toContain('Only the 1 fixture that finished is counted and shown');
    const text = renderTerminal(record, { color: false });
    expect(text).toContain('interrupted: only the 1 fixture that finished is counted; the others were not replayed');
    expect(text).not.toContain('finished are counted');
  });
});

describe('an interrupted run with a fixture and a persona script finished', () => {
  it('counts them as items, not as "2 fixtures", in the comment and the terminal', () => {
    const record = run(mixed().fixtures.slice(0, 1), { interrupted: true, personas: [persona('refund-chat')] });
    const comment = renderComment(record, ctx);
    expect(comment).toContain('before every item finished. Only the 2 items that finished are counted and shown');
    expect(renderTerminal(record, { color: false })).toContain('interrupted: only the 2 items that finished are counted');
    expect(comment).not.toContain('2 fixtures that finished');
  });
});

describe('an interrupted run with nothing finished', () => {
  it('says no fixture finished, not "the 0 fixtures that finished are counted", in the comment and the terminal', () => {
    const record = run([], { interrupted: true });
    const comment = renderComment(record, ctx);
    expect(comment).toContain('before every fixture finished. No fixture finished, so none is counted or shown.');
    const text = renderTerminal(record, { color: false });
    expect(text).toContain('interrupted: no fixture finished, so none is counted\n');
    expect(`${comment}\n${text}`).not.toContain('the 0 ');
  });
});
