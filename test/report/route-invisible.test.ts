// A route that changed only by a character that draws nothing (a zero-width space, a bidi control)
// must not read the same on both sides of "→": its invisible characters are named, as the reply
// diff names them (docs/action.md, "The PR comment").
import { describe, expect, it } from 'vitest';
import { renderComment } from '../../src/report/index.js';
import { fixtureData } from '../../src/report/html/data.js';
import { baseline, ctx, fixture, route, run } from './fixtures.js';
import { githubHtml, visibleText } from './helpers.js';

function routeChanged(conversation: string, stage: string) {
  return fixture('greeting', {
    reply: 'Welcome to the shop!',
    route: route(conversation, stage),
    verdict: 'pass',
    drift: { reply: 'same', route: 'different', verdict: 'still_passing' },
    baseline: baseline('greeting', 'Welcome to the shop!', 'pass', route('main', 'answer')),
  });
}

describe('a route changed by an invisible character', () => {
  it('the comment names a zero-width space in the route line', () => {
    const shown = visibleText(githubHtml(renderComment(run([routeChanged('main\u200B', 'answer')]), ctx)));
    expect(shown).toContain('main / answer → main⟨U+200B⟩ / answer');
  });

  it('the comment names a bidi control, which escaping would otherwise drop', () => {
    const shown = visibleText(githubHtml(renderComment(run([routeChanged('main', 'answer\u202E')]), ctx)));
    expect(shown).toContain('main / answer → main / answer⟨U+202E⟩');
  });

  it('report.html gets the route with its invisible characters named', () => {
    const data = fixtureData(routeChanged('main\u200B', 'answer'));
    expect(data.route).toBe('main⟨U+200B⟩ / answer');
    expect(data.baseline?.route).toBe('main / answer');
    expect(data.routeChanged).toBe(true);
  });

  it('a route without invisible characters is shown as it is', () => {
    expect(fixtureData(routeChanged('refunds', 'policy')).route).toBe('refunds / policy');
  });
});
