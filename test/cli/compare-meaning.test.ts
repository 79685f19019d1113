// compare over two runs of a hosted model against one baseline (docs/evaluations.md#compare): the
// agent rewords every reply, so the later run's reply differs from the earlier's everywhere; where
// the later changed a fact against the baseline, compare names that fact beside the replies.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { json, startServer, type Responder } from '../judge/server.js';
import { MEANING_TOOL } from '../../src/judge/meaning.js';
import { prng } from '../support/prng.js';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderComment } from '../../src/report/markdown.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';

useCleanup();

const BASELINE = 'Returns are accepted within 30 days. The full price goes back to the card or account you paid with.';

/** The line of compare's output that names the item. */
const line = (out: string): string => out.split('\n').find((l) => l.includes('returns')) ?? '';

/**
 * Three runs, a.json, b.json and c.json, of `fixtures` (the item `returns`) against one baseline:
 * the agent and the judge answer as `agent` and `answer` say for the run (0, 1, 2). The project's folder.
 */
async function threeRuns(fixtures: string, agent: (run: number) => AgentHandler, answer: (run: number) => Responder): Promise<string> {
  let run = 0;
  const judge = await startServer([(res, req) => answer(run)(res, req)]);
  const server = await serve((req) => agent(run)(req));
  const cwd = await makeProject({
    config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
    fixtures: { 'f.yml': fixtures },
    baselines: [baseline('returns', BASELINE, null, 'pass')],
  });
  for (const out of ['a.json', 'b.json', 'c.json']) {
    await cli(['run', '--out', out, '--fail-on', 'none'], cwd);
    run += 1;
  }
  await judge.close();
  return cwd;
}

describe('compare, two runs against one baseline', () => {
  it('names the fact the later run changed against the baseline, not only a snippet of the replies', async () => {
    let days = 30;
    let call = 0;
    // A hosted model: its opening words differ on every call, so the snippet of two runs starts there.
    const agent: AgentHandler = (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
      const opening = ['Happy to help.', 'Sure!'][call++ % 2] as string;
      return { json: { reply: `${opening} Refunds go to your original payment method, in full, and you have ${days} days from delivery.`, route: null, ended: false } };
    };
    const server = await serve(agent);
    const judge = await startServer([completion('{"difference": "", "score": 0.95}')]);
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns? }\n' },
      baselines: [baseline('returns', BASELINE, null, 'pass')],
    });
    const first = await cli(['run', '--out', 'a.json'], cwd);
    expect(first.stdout).toContain('Reworded (1)');
    days = 14;
    const second = await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    expect(second.stdout).toContain('changed in meaning: numbers 30 → 14');
    const r = await cli(['compare', 'a.json', 'b.json', '--markdown', 'c.md'], cwd);
    expect(r.code).toBe(0);
    const line = r.stdout.split('\n').find((l) => l.includes('returns')) ?? '';
    expect(line).toContain('reply changed: ');
    expect(line).toContain('; against the baseline: changed in meaning: numbers 30 → 14');
  });

  // A hosted meaning judge answers the same pair one way on one run and the other way on the next
  // (docs/meaning.md, "A judge that answers differently"), in a shape drawn from a seed each time.
  it('names a meaning judge that answered the same replies differently, not a change of the agent', async () => {
    const random = prng(1205);
    const scores = [0.9, 0.55, 0.9];
    const shapes = [
      (a: string) => a,
      (a: string) => `\`\`\`json\n${a}\n\`\`\``,
      (a: string) => `${a}\nThe replies are close.`,
    ];
    let calls = 0;
    const noisy: Responder = (res, req) => {
      const score = scores[calls++ % scores.length] as number;
      const answer = JSON.stringify({ difference: score < 0.8 ? 'the new reply | drops <b>the card</b>' : '', score });
      completion((shapes[Math.floor(random() * shapes.length)] as (a: string) => string)(answer))(res, req);
    };
    const server = await serve(() => ({ json: { reply: 'You have 30 days from delivery, and the full price goes back to your card.', route: null, ended: false } }));
    const judge = await startServer([noisy]);
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns? }\n' },
      baselines: [baseline('returns', BASELINE, null, 'pass')],
    });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await cli(['run', '--out', 'c.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const worse = await cli(['compare', 'a.json', 'b.json', '--markdown', 'ab.md'], cwd);
    const line = worse.stdout.split('\n').find((l) => l.includes('returns')) ?? '';
    expect(line).toContain('the meaning judge answered the same replies differently: reworded (judge 0.90) → changed in meaning (judge 0.55): the new reply | drops <b>the card</b>');
    expect(worse.stdout).toContain('1 changed in meaning');
    const md = await readFile(join(cwd, 'ab.md'), 'utf8');
    expect(md).toContain('the meaning judge answered the same replies differently');
    expect(md).not.toContain('<b>the card</b>');
    // The comment's "Since the previous run" says it too, escaped.
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    const comment = renderComment(b, { ...DEFAULT_CONTEXT, previous: { runId: '41', comparison: compareRuns(a, b) } });
    expect(comment).toContain('- `returns`: ' + String.raw`the meaning judge answered the same replies differently\: reworded \(judge 0.90\) → changed in meaning \(judge 0.55\)\: the new reply \| drops &lt;b&gt;the card&lt;/b&gt;`);
    const better = await cli(['compare', 'b.json', 'c.json'], cwd);
    expect(better.stdout.split('\n').find((l) => l.includes('returns'))).toContain('the meaning judge answered the same replies differently: changed in meaning (judge 0.55): the new reply | drops <b>the card</b> → reworded (judge 0.90)');
  });

  // The meaning judge could not be reached on one run for replies it judged on the others: the item
  // moves between Reworded, Changed and "meaning not checked" with the very same reply, which reads
  // as the agent's doing (or as nothing at all) unless the judge is named.
  it('names a meaning judge that gave no usable answer for the same replies, in either direction', async () => {
    const answers: Responder[] = [
      completion(JSON.stringify({ difference: '', score: 0.9 })),
      json(503, { error: { message: 'overloaded' } }),
      completion(JSON.stringify({ difference: 'drops <b>the card</b>', score: 0.55 })),
    ];
    const reply = { json: { reply: 'You have 30 days from delivery, and the full price goes back to your card.', route: null, ended: false } };
    const cwd = await threeRuns('fixtures:\n  - { label: returns, message: returns? }\n', () => () => reply, (run) => answers[run] as Responder);
    const down = await cli(['compare', 'a.json', 'b.json'], cwd);
    expect(line(down.stdout)).toContain('reply changed: the meaning judge did not judge the same replies both times: reworded (judge 0.90) → meaning not checked (meaning judge unreachable: HTTP 503');
    expect(down.stdout).toContain('why: 1 reply changed');
    const back = await cli(['compare', 'b.json', 'c.json'], cwd);
    expect(line(back.stdout)).toMatch(/changed in meaning: the meaning judge did not judge the same replies both times: meaning not checked \(meaning judge unreachable: HTTP 503[^)]*\) → changed in meaning \(judge 0\.55\): drops <b>the card<\/b>/);
    // The comment's "Since the previous run" says it, escaped.
    const [b, c] = [await readResults(join(cwd, 'b.json')), await readResults(join(cwd, 'c.json'))];
    const comment = renderComment(c, { ...DEFAULT_CONTEXT, previous: { runId: '41', comparison: compareRuns(b, c) } });
    expect(comment).toContain('- `returns`: ' + String.raw`the meaning judge did not judge the same replies both times\: meaning not checked \(meaning judge unreachable\: HTTP 503`);
    expect(comment).toContain('drops &lt;b&gt;the card&lt;/b&gt;');
  });

  // A repeated item's meaning is its worst attempt's, named ("attempt 2: meaning judge unreachable:
  // ..."; docs/meaning.md, "Repeats"): the judge that could not be reached for attempt 2's reply on
  // the later run, having judged the very same replies on the earlier one, is named as for one
  // attempt; an attempt 2 that replied otherwise on the later run is no judge disagreeing with itself.
  it('names a meaning judge that gave no usable answer for a repeated item\u2019s attempt it judged on the earlier run', async () => {
    const first = 'You have 30 days from delivery, and the full price goes back to your card.';
    // Attempt 2's reply on each run: the same on the first two, another on the third.
    const seconds = ['Within 30 days from delivery, the full price goes back to your card.', 'Within 30 days from delivery, the full price goes back to your card.', 'Refunds take 30 days from delivery, to your card.'];
    // Attempt 2 is compared with attempt 1: on the second run that pair gets no answer; on the third, a low score.
    const answer = (run: number): Responder => (res, req) => {
      const pair = JSON.stringify(req.body).includes('Within 30 days') ? 'same' : JSON.stringify(req.body).includes('Refunds take') ? 'other' : 'shown';
      if (run === 1 && pair === 'same') return json(503, { error: { message: 'overloaded' } })(res, req);
      completion(JSON.stringify(pair === 'other' ? { difference: 'drops the full price', score: 0.55 } : { difference: '', score: 0.9 }))(res, req);
    };
    const agent = (run: number): AgentHandler => (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
      return { json: { reply: String(body.session).endsWith('-2') ? (seconds[run] as string) : first, route: null, ended: false } };
    };
    const cwd = await threeRuns('fixtures:\n  - { label: returns, message: returns?, repeat: { count: 2 } }\n', agent, answer);
    const down = await cli(['compare', 'a.json', 'b.json'], cwd);
    expect(line(down.stdout)).toContain('reply changed: the meaning judge did not judge the same replies both times: reworded (judge 0.90) → meaning not checked (attempt 2: meaning judge unreachable: HTTP 503');
    // Attempt 2 replied otherwise: the judge was asked of other replies, and is not said to have disagreed.
    const other = await cli(['compare', 'b.json', 'c.json'], cwd);
    expect(other.stdout).not.toContain('the meaning judge did not judge the same replies');
    // It moved the item, attempt 2's reply named: "nothing changed" before.
    expect(line(other.stdout)).toContain(`changed in meaning: attempt 2's reply changed: "Within 30 days from delivery, the full price goes back to your card." → "Refunds take 30 days from delivery, to your card."; the item before: meaning not checked: attempt 2: meaning judge unreachable: HTTP 503`);
    expect(line(other.stdout)).toContain('; now: changed in meaning: attempt 2: drops the full price');
    const answered = await cli(['compare', 'a.json', 'c.json'], cwd);
    expect(answered.stdout).not.toContain('the meaning judge answered the same replies differently');
    expect(line(answered.stdout)).toContain("attempt 2's reply changed: ");
    expect(line(answered.stdout)).toContain('; the item before: reworded (judge 0.90); now: changed in meaning: attempt 2: drops the full price');
  });

  // A repeated item's meaning may be another attempt's (docs/meaning.md, "Repeats"): attempt 2 that
  // changed a fact on the second run moves the item from Reworded to Changed while the reply shown
  // (attempt 1's) stays the very same; compare names that attempt, both ways, not "nothing changed".
  it('names another attempt whose reply moved a repeated item\u2019s meaning, the reply shown the same', async () => {
    const first = 'You have 30 days from delivery, and the full price goes back to your card.';
    const seconds = ['Within 30 days from delivery, the full price goes back to your card.', 'Within 14 days from delivery, the full price goes back to your card.'];
    const agent = (run: number): AgentHandler => (req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
      return { json: { reply: String(body.session).endsWith('-2') ? (seconds[run % 2] as string) : first, route: null, ended: false } };
    };
    const cwd = await threeRuns('fixtures:\n  - { label: returns, message: returns?, repeat: { count: 2 } }\n', agent, () => completion(JSON.stringify({ difference: '', score: 0.9 })));
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    expect(a.fixtures[0]?.drift?.meaning).toMatchObject({ value: 'reworded' });
    expect(b.fixtures[0]?.drift?.meaning).toMatchObject({ value: 'changed', detail: 'attempt 2: numbers 30 → 14' });
    const worse = await cli(['compare', 'a.json', 'b.json', '--markdown', 'ab.md'], cwd);
    expect(worse.stdout).not.toContain('nothing changed');
    expect(line(worse.stdout)).toContain('changed in meaning: attempt 2\'s reply changed: "Within 30 days from delivery, the…" → "Within 14 days from delivery, the…"; the item before: reworded (judge 0.90); now: changed in meaning: attempt 2: numbers 30 → 14');
    expect(worse.stdout).toContain('1 changed in meaning');
    expect(await readFile(join(cwd, 'ab.md'), 'utf8')).toContain("attempt 2's reply changed");
    const better = await cli(['compare', 'b.json', 'c.json'], cwd);
    expect(line(better.stdout)).toContain('reworded: attempt 2\'s reply changed: "Within 14 days from delivery, the…" → "Within 30 days from delivery, the…"; the item before: changed in meaning: attempt 2: numbers 30 → 14; now: reworded (judge 0.90)');
    // Every attempt the same in both runs: nothing changed.
    expect((await cli(['compare', 'a.json', 'c.json'], cwd)).stdout).not.toContain('returns');
  });

  // The record names the meaning judge's provider (docs/results-json.md): a run that asks another
  // provider's model of the same name is told apart, and its answers are not one judge's flip.
  it('records the meaning judge\u2019s provider, and names a change of it rather than a judge disagreeing with itself', async () => {
    const answer = (score: number): object => ({ difference: score < 0.8 ? 'drops the card' : '', score });
    const openai = await startServer([completion(JSON.stringify(answer(0.9)))]);
    const anthropic = await startServer([
      (res, req) => {
        const tools = typeof req.body === 'object' && req.body !== null && 'tools' in req.body;
        const content = tools ? [{ type: 'tool_use', id: 'toolu_1', name: MEANING_TOOL, input: answer(0.55) }] : [{ type: 'text', text: JSON.stringify(answer(0.55)) }];
        json(200, { content, stop_reason: tools ? 'tool_use' : 'end_turn' })(res, req);
      },
    ]);
    const server = await serve(() => ({ json: { reply: 'You have 30 days from delivery, and the full price goes back to your card.', route: null, ended: false } }));
    const config = (provider: string, url: string): string =>
      `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${openai.url}", model: m, apiKey: k, retries: 0 }\nmeaning: { check: judge, provider: ${provider}, baseUrl: "${url}", model: m, apiKey: k2 }\ncost: { capUsd: 1 }\n`;
    const cwd = await makeProject({
      config: config('openai', openai.url),
      fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns? }\n' },
      baselines: [baseline('returns', BASELINE, null, 'pass')],
    });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), config('anthropic', anthropic.url));
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await Promise.all([openai.close(), anthropic.close()]);
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    expect(a.meaning).toMatchObject({ check: 'judge', model: 'm', provider: 'openai' });
    expect(b.meaning).toMatchObject({ check: 'judge', model: 'm', provider: 'anthropic' });
    const r = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = r.stdout.split('\n').find((l) => l.includes('returns')) ?? '';
    expect(line).toContain('the meaning judge changed (openai m → anthropic m) and answered the same replies differently: reworded (judge 0.90) → changed in meaning (judge 0.55): drops the card');
  });

  // The same model name at another address (a proxy, a local server) is another meaning judge: the
  // record keeps its address, without credentials or query, and compare names the change of it.
  it('records the meaning judge\u2019s address, and names another address rather than a judge disagreeing with itself', async () => {
    const answer = (score: number): string => JSON.stringify({ difference: score < 0.8 ? 'drops the card' : '', score });
    const [first, second] = [await startServer([completion(answer(0.9))]), await startServer([completion(answer(0.55))])];
    const server = await serve(() => ({ json: { reply: 'You have 30 days from delivery, and the full price goes back to your card.', route: null, ended: false } }));
    const config = (url: string): string => `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`;
    const cwd = await makeProject({
      config: config(first.url),
      fixtures: { 'f.yml': 'fixtures:\n  - { label: returns, message: returns? }\n' },
      baselines: [baseline('returns', BASELINE, null, 'pass')],
    });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), config(second.url));
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await Promise.all([first.close(), second.close()]);
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    expect(a.meaning).toMatchObject({ model: 'm', provider: 'openai', endpoint: first.url });
    expect(b.meaning).toMatchObject({ model: 'm', provider: 'openai', endpoint: second.url });
    const r = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = r.stdout.split('\n').find((l) => l.includes('returns')) ?? '';
    expect(line).toContain(`the meaning judge changed (openai m at ${first.url} → openai m at ${second.url}) and answered the same replies differently: reworded (judge 0.90) → changed in meaning (judge 0.55): drops the card`);
  });
});
