// The accept job's summary (report/accept-summary.ts): pure, escaped, bounded.
import { describe, expect, it } from 'vitest';
import { renderAcceptSummary } from '../../src/report/index.js';

const RUN = { pr: 7, branch: 'fix/@team-<b>x</b>', reviewedSha: '1'.repeat(40), runId: '1001' };

describe('renderAcceptSummary', () => {
  it('nothing to accept: says no commit was made, with the refusals and the unchanged', () => {
    const text = renderAcceptSummary({
      kind: 'acceptance',
      run: RUN,
      acceptance: { accepted: [], refused: [{ label: 'order-status', reason: 'errored: no reply to accept' }], skipped: ['greeting'], commitSha: null, commitUrl: null, note: null },
      comment: { kind: 'updated' },
    });
    expect(text).toBe(
      [
        '## agent-replay accept: nothing to accept (pull request #7)',
        '',
        'No commit was made: of the replies recorded at `1111111` by workflow run 1001, none is a pass or fail reply that differs from its baseline.',
        '',
        '**Refused (1)**:',
        '',
        '- `order-status`: the replay errored, so there is no reply to accept.',
        '',
        '**Unchanged, nothing to write (1)**: `greeting`',
        '',
      ].join('\n'),
    );
  });

  it('items refused for one reason are one line, named together, the reason said once; the count is of items', () => {
    const unchecked = 'replies vary across 3 attempts, their meaning not checked: attempts 2 and 3: the facts are the same and meaning.check is facts, which asks no model';
    const refused = [
      { label: 'refund', reason: unchecked },
      { label: 'order-status', reason: 'errored: no reply to accept' },
      { label: 'hours', reason: unchecked },
      { label: 'price', reason: unchecked },
    ];
    const text = renderAcceptSummary({ kind: 'acceptance', run: RUN, acceptance: { accepted: [], refused, skipped: [], commitSha: null, commitUrl: null, note: null }, comment: { kind: 'updated' } });
    const lines = text.split('\n');
    const at = lines.indexOf('**Refused (4)**:');
    expect(lines.slice(at + 2, at + 4)).toEqual([
      "- `refund`, `hours` and `price`: replies vary across 3 attempts, their meaning not checked\\: attempts 2 and 3\\: the facts are the same and meaning.check is facts, which asks no model. There is no one reply to store\\: have a model check their meaning \\(meaning.check\\: judge, the default once the suite's config has a judge\\: [docs/meaning.md#&#8288;configuration](https://github.com/agent-replay/agent-replay/blob/v0.1.0/docs/meaning.md#configuration)\\), or accept after a run whose attempts agree.",
      '- `order-status`: the replay errored, so there is no reply to accept.',
    ]);
    expect(lines[at + 4]).toBe('');
    // A long reason is cut; its consequence and fix after it are said whole.
    const long = `replies differ in meaning across 3 attempts: attempt 2: ${'a judge\'s long difference '.repeat(40)}`;
    const cut = renderAcceptSummary({ kind: 'acceptance', run: RUN, acceptance: { accepted: [], refused: [{ label: 'wordy', reason: long }], skipped: [], commitSha: null, commitUrl: null, note: null }, comment: { kind: 'updated' } });
    expect(cut).toMatch(/^- `wordy`: replies differ in meaning across 3 attempts\\: attempt 2\\: a judge's long difference .{1,300}… There is no one reply to store\\: find out why the agent answers differently, or accept after a run whose attempts agree\.$/m);
  });

  it('a branch name from the pull request is a code span: no HTML, no mention', () => {
    const text = renderAcceptSummary({
      kind: 'acceptance',
      run: RUN,
      acceptance: { accepted: ['greeting'], refused: [], skipped: [], commitSha: 'a'.repeat(40), commitUrl: 'javascript:alert(1)', note: null },
      comment: { kind: 'updated' },
    });
    expect(text).toContain('Committed 1 baseline in `aaaaaaa` to the branch `fix/@team-<b>x</b>`:'); // no link for an unsafe URL
  });

  it('a long refusal keeps the fix of ours at its end whole, what happened cut (clipDetail, as an item\'s detail line)', () => {
    // Was: cut at 4,000 characters from the start, the fix after GitHub's long answer lost.
    const reason = `GitHub answered 422 ${'Validation Failed '.repeat(300)}while committing the baselines; give the job a token that may push to the branch`;
    const text = renderAcceptSummary({ kind: 'refused', pr: 7, reason });
    const line = text.split('\n')[2] ?? '';
    expect(line).toMatch(/…; give the job a token that may push to the branch$/);
    expect(line.length).toBeLessThan(4100);
  });

  it('a refusal is said as a sentence of its own under the heading: its first letter a capital', () => {
    const text = renderAcceptSummary({ kind: 'refused', pr: 7, reason: "the pull request's head has moved since the run the comment shows (reviewed 1111111, head is now 4444444)." });
    expect(text).toBe("## agent-replay accept: baselines not accepted (pull request #7)\n\nThe pull request's head has moved since the run the comment shows \\(reviewed 1111111, head is now 4444444\\).\n");
  });

  it("a repeated item's refusal is accept's reason as the CLI and the commit message word it, then the consequence and the fix", () => {
    const refused = [
      { label: 'jumpy', reason: 'replies differ in meaning across 3 attempts: attempt 2: numbers 1 → 2; attempt 3: numbers 1 → 3' },
      // A judge's difference may end a sentence itself: not two full stops.
      { label: 'judged', reason: 'replies differ in meaning across 2 attempts: attempt 2: The refund window changed.' },
      { label: 'wobbly', reason: 'replies vary across 3 attempts' },
    ];
    const text = renderAcceptSummary({ kind: 'acceptance', run: RUN, acceptance: { accepted: ['steady'], refused, skipped: [], commitSha: 'a'.repeat(40), commitUrl: null, note: null }, comment: { kind: 'updated' } });
    expect(text).toContain(
      [
        '- `jumpy`: replies differ in meaning across 3 attempts\\: attempt 2\\: numbers 1 → 2; attempt 3\\: numbers 1 → 3. There is no one reply to store\\: find out why the agent answers differently, or accept after a run whose attempts agree.',
        '- `judged`: replies differ in meaning across 2 attempts\\: attempt 2\\: The refund window changed. There is no one reply to store\\: find out why the agent answers differently, or accept after a run whose attempts agree.',
        '- `wobbly`: replies vary across 3 attempts. There is no one reply to store\\: make the agent answer consistently, or accept after a run whose attempts agree.',
      ].join('\n'),
    );
  });

  it('a refusal quoting a huge tampered text stays small', () => {
    const text = renderAcceptSummary({ kind: 'refused', pr: 7, reason: `the results artifact was rejected: ${'x'.repeat(2_000_000)}` });
    expect(text.length).toBeLessThan(5_000);
  });

  it("names its suite above it when the suite is not in .agent-replay, escaped: two suites' steps in one job are told apart", () => {
    const already = { kind: 'already', pr: 7, runId: '1001', acceptedSha: 'a'.repeat(40) } as const;
    expect(renderAcceptSummary(already, 'apps/sales/.agent-replay').startsWith('**Suite** `apps/sales/.agent-replay`\n\n## agent-replay accept: already accepted')).toBe(true);
    expect(renderAcceptSummary(already, 'a`b').split('\n')[0]).toBe('**Suite** ``a`b``');
    expect(renderAcceptSummary(already)).not.toContain('**Suite**');
  });

  it('already accepted: says what became of a comment that did not show the acceptance, and nothing when it did', () => {
    const already = { kind: 'already', pr: 7, runId: '1001', acceptedSha: 'a'.repeat(40) } as const;
    expect(renderAcceptSummary(already)).not.toContain('The comment');
    expect(renderAcceptSummary({ ...already, comment: { kind: 'updated' } })).toContain('The comment did not show this acceptance (the accept job that committed could not update it): it does now.');
    expect(renderAcceptSummary({ ...already, comment: { kind: 'failed' } })).toContain('could not be updated (the job\'s log says why): it still shows the reviewed run until the next check replaces it.');
    expect(renderAcceptSummary({ ...already, comment: { kind: 'newer', runId: '3003' } })).toContain('it now shows workflow run 3003, a check newer than the reviewed run.');
  });

  it('stopped: says whether the commit had landed', () => {
    expect(renderAcceptSummary({ kind: 'stopped', pr: 7, committedSha: null })).toContain('before anything was committed');
    expect(renderAcceptSummary({ kind: 'stopped', pr: 7, committedSha: 'b'.repeat(40) })).toContain('after the baselines were committed in `bbbbbbb`');
  });
});
