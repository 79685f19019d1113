import { describe, expect, it } from 'vitest';
import { refusalNotice, runStateSentence } from '../../src/action/accept.js';
import { withNotice } from '../../src/action/notice.js';
import { NOTICE_RESERVE_CHARS, renderComment } from '../../src/report/index.js';
import { ctx, many } from '../report/fixtures.js';

const MARKER = '<!-- agent-replay:marker=agent-replay -->';
const META = '<!-- agent-replay:meta {"headSha":null,"runId":"1","artifactName":null} -->';
const START = '<!-- agent-replay:notice -->';
const END = '<!-- /agent-replay:notice -->';

describe('withNotice', () => {
  const report = [MARKER, META, '### 3 passed', '', '| passed | 3 |'].join('\n');

  it('puts the notice under the hidden lines and keeps the report whole', () => {
    const out = withNotice(report, '> first');
    expect(out.split('\n')).toEqual([MARKER, META, START, '> first', END, '', '### 3 passed', '', '| passed | 3 |']);
  });

  it('replaces the earlier notice, and notices stacked by older versions, instead of stacking', () => {
    const stacked = [MARKER, META, START, '> one', END, START, '> two', END, '', '### 3 passed'].join('\n');
    expect(withNotice(withNotice(stacked, '> three'), '> four')).toBe([MARKER, META, START, '> four', END, '', '### 3 passed'].join('\n'));
  });

  it('leaves notice-like text inside the report alone', () => {
    const quoted = [MARKER, META, '### 1 failed', '```', START, 'agent text', END, '```'].join('\n');
    const out = withNotice(quoted, '> refused');
    expect(out).toContain(['```', START, 'agent text', END, '```'].join('\n'));
    expect(out.startsWith([MARKER, META, START, '> refused', END].join('\n'))).toBe(true);
  });

  it("carries the report's time on the notice's line, and replaces timed and older untimed notices alike", () => {
    const timed = withNotice(report, '> first', '2026-12-04T00:01:02Z');
    const open = '<!-- agent-replay:notice report-updated=2026-12-04T00:01:02Z -->';
    expect(timed.split('\n').slice(0, 5)).toEqual([MARKER, META, open, '> first', END]);
    const again = withNotice(timed, '> second', '2026-12-04T00:01:02Z');
    expect(again).toBe([MARKER, META, open, '> second', END, '', '### 3 passed', '', '| passed | 3 |'].join('\n'));
    const older = [MARKER, META, START, '> old', END, '', '### 3 passed'].join('\n');
    expect(withNotice(older, '> new', '2026-12-04T00:01:02.123Z')).toBe(
      [MARKER, META, '<!-- agent-replay:notice report-updated=2026-12-04T00:01:02.123Z -->', '> new', END, '', '### 3 passed'].join('\n'),
    );
  });

  it('on a notice-only comment (marker, no metadata) replaces the notice', () => {
    const first = withNotice(MARKER, '> a');
    expect(first).toBe([MARKER, START, '> a', END, '', ''].join('\n'));
    expect(withNotice(first, '> b')).toBe([MARKER, START, '> b', END, '', ''].join('\n'));
  });
});

describe('runStateSentence', () => {
  it.each([
    ['in_progress', 'is still running'],
    ['queued', 'is still queued'],
    ['requested', 'has not started yet'],
    ['pending', 'has not started yet'],
    ['waiting', 'is waiting for an approval or a deployment protection rule'],
    [null, 'has not finished yet'],
    ['some_new_state', 'has not finished yet'],
  ])('%s -> %s', (status, sentence) => {
    expect(runStateSentence(status)).toBe(sentence);
  });
});

describe('refusalNotice', () => {
  it('keeps a short reason whole, a sentence of its own after the heading: its first letter a capital', () => {
    expect(refusalNotice('the run is still running')).toBe('> [!WARNING]\n> **Baselines not accepted.** The run is still running');
    expect(refusalNotice('GitHub refused the commit')).toBe('> [!WARNING]\n> **Baselines not accepted.** GitHub refused the commit');
  });

  it('shortens a long reason, even one that escaping lengthens, so that a full comment stays under GitHub limit', () => {
    const reason = '<@x>|'.repeat(3000);
    const notice = refusalNotice(reason);
    expect(notice.length).toBeLessThanOrEqual(NOTICE_RESERVE_CHARS);
    expect(notice).toContain('…');
    const full = renderComment(many(5000), ctx);
    expect(withNotice(full, notice).length).toBeLessThanOrEqual(65_536);
  });
});
