// A fixture whose message was edited since its baseline (docs/meaning.md, "An edited fixture"): its
// item reads "changed: the fixture's message was edited since the baseline", and shows the message
// the baseline answered beside the message now, so the reviewer can see both questions. Untrusted
// text: the messages stay inside code blocks in the comment, and are data in report.html.
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/index.js';
import { fixtureData } from '../../src/report/html/data.js';
import type { FixtureRecord } from '../../src/types.js';
import { answeredAnotherMessage, editedSinceBaseline } from '../../src/evaluate/drift.js';
import { decideAcceptance } from '../../src/evaluate/acceptance.js';
import { baseline, ctx, fixture, run } from './fixtures.js';
import { allCodeBlocks, githubHtml, outsideCode } from './helpers.js';

const MESSAGE_EDITED = "the fixture's message was edited since the baseline";

function edited(then: string | undefined, now: string, over: Partial<FixtureRecord> = {}): FixtureRecord {
  return fixture('refund-window', {
    message: now,
    reply: 'Digital goods can be refunded within 14 days.',
    verdict: 'pass',
    drift: { reply: 'different', route: 'same', verdict: 'still_passing', meaning: { value: 'changed', by: 'message', detail: MESSAGE_EDITED } },
    baseline: { ...baseline('refund-window', 'You can return items within 30 days.'), ...(then === undefined ? {} : { message: then }) },
    ...over,
  } as Partial<FixtureRecord>);
}

describe('an edited fixture in the comment', () => {
  it('shows the message the baseline answered beside the message now, as a diff', () => {
    const md = renderComment(run([edited('What is the refund window?', 'What is the refund window for digital goods?')]), ctx);
    const html = githubHtml(md);
    expect(md).toContain('**Message**, edited since the baseline (`-` the message the baseline answered, `+` the message now, ⟦changed words⟧):');
    expect(allCodeBlocks(html)).toContain(['- What is the refund window?', '+ What is the refund window⟦ for digital goods⟧?'].join('\n') + '\n');
  });

  it('keeps both messages inert: markup, mentions and a fence stay inside the code block', () => {
    const then = 'Ask @octocat about <img src=x onerror=alert(1)> #12';
    const now = 'Ask @octocat about <img src=x onerror=alert(1)> #12 and ``` fences';
    const md = renderComment(run([edited(then, now)]), ctx);
    const html = githubHtml(md);
    expect(outsideCode(html)).not.toContain('<img');
    expect(outsideCode(html)).not.toContain('@octocat');
    expect(allCodeBlocks(html).join('\n')).toContain('- Ask @octocat about <img src=x onerror=alert(1)> #12');
  });

  it('says the persona tag the baseline answered when only that was edited', () => {
    const f = edited('Where is my order?', 'Where is my order?', { persona: 'impatient' });
    expect(renderComment(run([f]), ctx)).toContain("**Message** (persona `impatient`, the baseline's none): Where is my order?");
  });

  it('shows the message alone when it was not edited, and for a baseline that kept no message', () => {
    const same = edited('What is the refund window?', 'What is the refund window?', { drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const old = edited(undefined, 'What is the refund window?', { drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    for (const f of [same, old]) {
      const md = renderComment(run([f]), ctx);
      expect(md).toContain('**Message**: What is the refund window?');
      expect(md).not.toContain('edited since the baseline');
    }
  });
});

describe('a message that looks the same but writes an accented letter otherwise', () => {
  it('is the message the baseline answered (NFC then, NFD now, as some macOS editors save text): not edited, and accepting the same reply again is unchanged', () => {
    const then = 'Is the caf\u00e9 open?';
    const now = 'Is the cafe\u0301 open?';
    expect(answeredAnotherMessage({ message: then }, { message: now, persona: null })).toBe(false);
    expect(editedSinceBaseline({ message: then }, { message: now, persona: null })).toBeNull();
    // Only the persona tag edited: the message is not said to have been.
    expect(editedSinceBaseline({ message: then }, { message: now, persona: 'impatient' })).toEqual({ messageWas: null, personaWas: null });
    const f = edited(then, now, { drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const md = renderComment(run([f]), ctx);
    expect(md).not.toContain('edited since the baseline');
    const stored = { ...baseline('refund-window', 'Yes, until 6 pm.', 'pass', null), message: then };
    const record = { label: 'refund-window', errored: false, verdict: 'pass' as const, reply: 'Yes, until 6 pm.', route: null, baseline: stored, attempts: undefined, message: now, persona: null };
    expect(decideAcceptance(record, '2026-12-02T00:00:00.000Z', null).kind).toBe('unchanged');
  });

  it('in a persona tag (NFC then, NFD now) is the tag the baseline answered: not edited, not said beside the message, and accepting the same reply again is unchanged', () => {
    const [then, now] = ['ren\u00e9e', 'rene\u0301e'];
    const message = 'Where is my order?';
    expect(answeredAnotherMessage({ message, persona: then }, { message, persona: now })).toBe(false);
    expect(editedSinceBaseline({ message, persona: then }, { message, persona: now })).toBeNull();
    // A tag edited otherwise is still an edit.
    expect(editedSinceBaseline({ message, persona: 'renee' }, { message, persona: now })).toEqual({ messageWas: null, personaWas: 'renee' });
    const stored = { ...baseline('refund-window', 'It ships today.', 'pass', null), message, persona: then };
    const f = edited(message, message, { persona: now, baseline: stored, drift: { reply: 'different', route: 'same', verdict: 'still_passing' } });
    const md = renderComment(run([f]), ctx);
    expect(md).toContain(`**Message** (persona \`${now}\`): ${message}`);
    expect(md).not.toContain("the baseline's");
    const record = { label: 'refund-window', errored: false, verdict: 'pass' as const, reply: 'It ships today.', route: null, baseline: stored, attempts: undefined, message, persona: now };
    expect(decideAcceptance(record, '2026-12-02T00:00:00.000Z', null).kind).toBe('unchanged');
  });
});

describe('an edited fixture in report.html', () => {
  it('carries the baseline message and its diff against the message now', () => {
    const data = fixtureData(edited('What is the refund window?', 'What is the refund window for digital goods?'));
    expect(data.messageEdited?.baseline).toBe('What is the refund window?');
    expect(data.messageEdited?.diff?.rows).toEqual([
      {
        a: [['What is the refund window?', 0]],
        b: [
          ['What is the refund window', 0],
          [' for digital goods', 1],
          ['?', 0],
        ],
      },
    ]);
    expect(data.messageEdited).not.toHaveProperty('personaWas');
  });

  it('has no such field for a fixture that was not edited', () => {
    expect(fixtureData(edited('Same?', 'Same?')).messageEdited).toBeUndefined();
    expect(fixtureData(edited(undefined, 'Same?')).messageEdited).toBeUndefined();
  });
});
