// compare over two runs of a hosted rubric judge (docs/judges.md, "A judge that answers
// differently"): the agent gave the very same reply both times, the judge scored it 0.80 on one run
// and 0.40 on the next. compare and the comment's "Since the previous run" say the judge answered
// the same reply differently, both scores, not a bare "verdict pass → fail" that reads as the agent's.

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { json, startServer, type Responder } from '../judge/server.js';
import { prng } from '../support/prng.js';
import { agentConfig, baseline, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';
import { judgeEndpointOf } from '../../src/judge/index.js';
import { JUDGE_CLIENT_DEFAULTS } from '../../src/config.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderComment } from '../../src/report/markdown.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';

useCleanup();

/**
 * The agent `agent` and the judge answering by `judging`, on loopback, and a project whose
 * fixtures are `fixtures` (lines of f.yml) judged by that judge; with `script`, also a persona
 * script of two criteria, "Stayed calm" and "The reply is polite".
 */
async function judgedProject(agent: AgentHandler, judging: Responder, fixtures: string[], o: { script?: boolean; repeat?: string } = {}): Promise<{ cwd: string; judge: { url: string; close(): Promise<void> } }> {
  const server = await serve(agent);
  const judge = await startServer([judging]);
  const cwd = await makeProject({
    config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
    fixtures: { 'f.yml': ['fixtures:', ...fixtures, ''].join('\n') },
    ...(o.script ? { personas: { 'p.yml': `label: calm-script\nopening: hello?\nexpect:\n  criteria: [ "Stayed calm", "The reply is polite" ]\n${o.repeat ? `repeat: ${o.repeat}\n` : ''}` } } : {}),
  });
  return { cwd, judge };
}

describe('compare, a rubric judge that answered the same reply differently', () => {
  it('names the judge and both scores for an identical reply, not for a reply that changed', async () => {
    // The run decides the score; the shape of each answer is drawn from a seed, as a hosted judge words it.
    const random = prng(1205);
    let score = 0.8;
    const shapes = [(a: string) => a, (a: string) => `\`\`\`json\n${a}\n\`\`\``, (a: string) => `${a}\nThe reply is close to the criterion.`];
    const noisy: Responder = (res, req) => {
      // "Stayed calm" is always met: a script's other criterion is the one that moves.
      const steady = JSON.stringify(req.body).includes('Stayed calm');
      const answer = JSON.stringify({ rationale: score >= 0.7 ? 'polite enough' : 'a little curt', score: steady ? 0.9 : score });
      completion((shapes[Math.floor(random() * shapes.length)] as (a: string) => string)(answer))(res, req);
    };
    let run = 0;
    const agent: AgentHandler = (req) => {
      const message = String(((req.json ?? {}) as Record<string, unknown>).message ?? '');
      // `changing` answers differently on each run; the others always the same.
      const reply = message === 'changing?' ? `Run ${run}: thanks for asking.` : 'You have 30 days from delivery.';
      return { json: { reply, route: null, ended: false } };
    };
    const { cwd, judge } = await judgedProject(agent, noisy, [
      '  - { label: returns, message: returns?, assert: { judge: "The reply is polite", threshold: 0.7 } }',
      '  - { label: listed, message: listed?, assert: [{ contains: "30 days" }, { judge: "The reply is polite", threshold: 0.7 }] }',
      '  - { label: changing, message: changing?, assert: { judge: "The reply is polite", threshold: 0.7 } }',
    ], { script: true });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    run = 1;
    score = 0.4;
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const r = await cli(['compare', 'a.json', 'b.json', '--markdown', 'ab.md'], cwd);
    const line = (label: string): string => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('returns')).toContain('the judge answered the same reply differently: pass (0.80) → fail (0.40)');
    // A persona script whose transcript is the same names the criterion that moved.
    expect(line('calm-script')).toContain('the judge answered the same transcript differently: criterion 2 pass (0.80) → fail (0.40)');
    // An assertion list whose judge check is the one that moved says it too.
    expect(line('listed')).toContain('the judge answered the same reply differently: pass (0.80) → fail (0.40)');
    // A reply that changed is the agent's doing, named as such.
    expect(line('changing')).toContain('reply changed: ');
    expect(line('changing')).not.toContain('the same reply');
    expect(r.stdout).toContain('why: 1 reply changed; 3 verdicts changed');
    const md = await readFile(join(cwd, 'ab.md'), 'utf8');
    expect(md).toContain('the judge answered the same reply differently');
    // The comment's "Since the previous run" says it beside the move.
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    const comment = renderComment(b, { ...DEFAULT_CONTEXT, previous: { runId: '41', comparison: compareRuns(a, b) } });
    expect(comment).toContain('- `returns`: pass → fail · the judge answered the same reply differently\\: pass \\(0.80\\) → fail \\(0.40\\)');
    expect(comment).toContain('- `changing`: pass → fail · reply changed');
  });

  // The judge could not be reached, or gave no usable answer, for a reply it judged before: the item
  // is not evaluated with the very same reply, which reads as the agent's doing unless it is named.
  it('names a judge that gave no verdict on the same reply, in either direction', async () => {
    let mode: 'answer' | 'down' = 'answer';
    const judging: Responder = (res, req) => {
      const body = JSON.stringify(req.body);
      if (mode === 'answer' || body.includes('Stayed calm')) return completion(JSON.stringify({ rationale: 'polite enough', score: 0.8 }))(res, req);
      // `returns` and the script's second criterion: unreachable (HTTP 404); `listed`: an answer with no score.
      if (body.includes('The reply is kind')) return completion('I would rather not score this.')(res, req);
      return json(404, { error: { message: 'no such model' } })(res, req);
    };
    const { cwd, judge } = await judgedProject(() => ({ json: { reply: 'You have 30 days from delivery.', route: null, ended: false } }), judging, [
      '  - { label: returns, message: returns?, assert: { judge: "The reply is polite", threshold: 0.7 } }',
      '  - { label: listed, message: listed?, assert: [{ contains: "30 days" }, { judge: "The reply is kind", threshold: 0.7 }] }',
    ], { script: true });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    mode = 'down';
    // The judge's address given on the command line: the cause's fix names the flag (report/terminal.ts cliWords), as --agent-url's does.
    const ran = await cli(['run', '--out', 'b.json', '--fail-on', 'none', '--judge-url', judge.url], cwd);
    expect(ran.stdout).toContain("check --judge-url (judge.baseUrl) and judge.model: the path (it is the API's base URL) or the model's name is probably wrong");
    expect(ran.stdout).not.toContain('check judge.baseUrl');
    mode = 'answer';
    await cli(['run', '--out', 'c.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const down = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = (out: string, label: string): string => out.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line(down.stdout, 'returns')).toContain('pass → not evaluated  verdict changed: the judge did not judge the same reply both times: pass (0.80) → not evaluated (judge unreachable: HTTP 404');
    expect(line(down.stdout, 'listed')).toContain('the judge did not judge the same reply both times: pass (0.80) → not evaluated (judge gave no usable answer: ');
    expect(line(down.stdout, 'calm-script')).toContain('the judge did not judge the same transcript both times: criterion 2 pass (0.80) → not evaluated (judge unreachable: HTTP 404');
    const back = await cli(['compare', 'b.json', 'c.json'], cwd);
    expect(line(back.stdout, 'returns')).toMatch(/the judge did not judge the same reply both times: not evaluated \(judge unreachable: HTTP 404[^)]*\) → pass \(0\.80\)/);
    // The comment's "Since the previous run" says it beside the move, escaped.
    const [b, c] = [await readResults(join(cwd, 'b.json')), await readResults(join(cwd, 'c.json'))];
    const comment = renderComment(c, { ...DEFAULT_CONTEXT, previous: { runId: '41', comparison: compareRuns(b, c) } });
    expect(comment).toContain('- `returns`: not evaluated → pass · the judge did not judge the same reply both times\\: not evaluated \\(judge unreachable\\: HTTP 404');
  });

  // A repeated assertion list and a repeated persona script: every attempt of both runs got the
  // same reply (transcript), and the judge's answers moved the verdict. Their attempts keep their
  // checks and transcript hashes (docs/results-json.md), so the judge is named, not the agent.
  it('names the judge for a repeated assertion list and a repeated persona script whose replies never changed', async () => {
    let score = 0.8;
    const judging: Responder = (res, req) => {
      const steady = JSON.stringify(req.body).includes('Stayed calm');
      completion(JSON.stringify({ rationale: 'as it reads', score: steady ? 0.9 : score }))(res, req);
    };
    const agent: AgentHandler = () => ({ json: { reply: 'You have 30 days from delivery.', route: null, ended: false } });
    const { cwd, judge } = await judgedProject(agent, judging, [
      '  - { label: listed, message: listed?, repeat: { count: 3, minPass: 2 }, assert: [{ contains: "30 days" }, { judge: "The reply is polite", threshold: 0.7 }] }',
    ], { script: true, repeat: '{ count: 3, minPass: 2 }' });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    score = 0.4;
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const r = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = (label: string): string => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('listed')).toContain('pass 3/3 → fail 0/3  verdict changed: the judge answered the same reply differently: 3/3 passed (0.80) → 0/3 passed (0.40)');
    expect(line('calm-script')).toContain('pass 3/3 → fail 0/3  verdict changed: the judge answered the same transcript differently: criterion 2 3/3 passed (0.80) → 0/3 passed (0.40)');
  });

  // A repeated item (docs/statistics.md): a judge that answers each call differently (drawn from a
  // seed) moves the pass rate of a reply that never changed; compare says it in one line per item,
  // and the run's own report says it on the item's attempts line.
  it('names a judge that answered the same reply differently across the attempts of a repeated item', async () => {
    const random = prng(4242);
    let run = 0;
    // Each run draws from its own band, so that the verdict moves between the runs; the judge's own log is the truth.
    const bands = [[0.55, 0.95], [0.3, 0.75]] as const;
    const given: number[][] = [[], []];
    const noisy: Responder = (res, req) => {
      const [lo, hi] = bands[run] as readonly [number, number];
      const score = Math.round((lo + random() * (hi - lo)) * 100) / 100;
      if (!JSON.stringify(req.body).includes('courteous')) given[run]?.push(score);
      completion(JSON.stringify({ rationale: score >= 0.7 ? 'polite enough' : 'a little curt', score }))(res, req);
    };
    let calls = 0;
    const agent: AgentHandler = (req) => {
      const message = String(((req.json ?? {}) as Record<string, unknown>).message ?? '');
      // `wording` answers each attempt in other words: its flakiness may be the agent's, and is not named.
      return { json: { reply: message === 'wording?' ? `Attempt ${calls++}: thanks for asking.` : 'You have 30 days from delivery.', route: null, ended: false } };
    };
    const { cwd, judge } = await judgedProject(agent, noisy, [
      '  - { label: returns, message: returns?, repeat: { count: 5, minPass: 3 }, assert: { judge: "The reply is polite", threshold: 0.7 } }',
      '  - { label: wording, message: wording?, repeat: { count: 5, minPass: 3 }, assert: { judge: "The reply is courteous", threshold: 0.7 } }',
    ]);
    const first = await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    run = 1;
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    const [fa, fb] = [a.fixtures.find((f) => f.label === 'returns'), b.fixtures.find((f) => f.label === 'returns')];
    // The seed gives a flaky first run whose verdict moves in the second.
    expect(fa?.repeat?.flaky).toBe(true);
    expect(fa?.verdict).not.toBe(fb?.verdict);
    const range = (xs: readonly number[]): string => (Math.min(...xs) === Math.max(...xs) ? Math.min(...xs).toFixed(2) : `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}`);
    const words = (xs: readonly number[]): string => `${xs.filter((x) => x >= 0.7).length}/5 passed (${range(xs)})`;
    const r = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = (label: string): string => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('returns')).toContain(`the judge answered the same reply differently: ${words(given[0] as number[])} → ${words(given[1] as number[])}`);
    expect(line('wording')).not.toContain('the same reply');
    // The run's comment: one line on the item's attempts, never one per attempt.
    const passed = (given[0] as number[]).filter((x) => x >= 0.7);
    const failed = (given[0] as number[]).filter((x) => x < 0.7);
    const comment = renderComment(a, DEFAULT_CONTEXT);
    const across = String.raw`the judge answered the same reply differently across the attempts\: ${passed.length} passed \(${range(passed)}\), ${failed.length} failed \(${range(failed)}\)`;
    expect(comment).toContain(across);
    expect(comment.split(across)).toHaveLength(2);
    expect(comment).toContain('the same reply on every attempt, judged differently: `returns`\n');
    // The terminal names it beside the flaky items.
    expect(first.stdout).toContain('the same reply on every attempt, judged differently: returns');
  });

  // Two addresses serving a model of the same name (a proxy, another region, a local server) are two
  // judges (docs/evaluations.md, "What defined each item"): their answers are not one judge's flip,
  // and a result kept from one is not reused for the other.
  it('takes the same model at another address for another judge: named as a change, never reused', async () => {
    const [here, elsewhere] = [await startServer([completion(JSON.stringify({ rationale: 'curt', score: 0.4 }))]), await startServer([completion(JSON.stringify({ rationale: 'polite', score: 0.8 }))])];
    const server = await serve(() => ({ json: { reply: 'You have 30 days from delivery.', route: null, ended: false } }));
    const config = (url: string): string => `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${url}/v1/", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`;
    const criterion = { criterion: 'The reply is polite', threshold: 0.7 };
    // Baselines whose kept result was judged here, elsewhere, and before addresses were kept.
    const kept = (label: string, endpoint: string | undefined) => ({
      ...baseline(label, 'You have 30 days from delivery.', null, 'pass'),
      judge: { score: 0.8, rationale: 'polite', fingerprint: { model: 'openai/m', ...(endpoint !== undefined ? { endpoint } : {}), promptVersion: JUDGE_PROMPT_VERSION, criteria: [criterion] } },
    });
    const fixture = (label: string): string => `  - { label: ${label}, message: returns?, assert: { judge: "The reply is polite", threshold: 0.7 } }`;
    const cwd = await makeProject({
      config: config(elsewhere.url),
      fixtures: { 'f.yml': ['fixtures:', fixture('kept-here'), fixture('kept-elsewhere'), fixture('kept-before'), ''].join('\n') },
      baselines: [kept('kept-here', `${here.url}/v1`), kept('kept-elsewhere', `${elsewhere.url}/v1`), kept('kept-before', undefined)],
    });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), config(here.url));
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await Promise.all([here.close(), elsewhere.close()]);
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    const of = (r: typeof a, label: string) => r.fixtures.find((f) => f.label === label);
    expect(of(b, 'kept-here')?.judgeFingerprint?.endpoint).toBe(`${here.url}/v1`);
    // Kept at this address, or before addresses were kept (unknown: as before): reused; kept elsewhere: judged here.
    expect(of(b, 'kept-here')?.judgeReused).not.toBeNull();
    expect(of(b, 'kept-before')?.judgeReused).not.toBeNull();
    expect(of(b, 'kept-elsewhere')).toMatchObject({ verdict: 'fail', score: 0.4 });
    expect(of(b, 'kept-elsewhere')?.judgeReused ?? null).toBeNull();
    expect(here.received).toHaveLength(1);
    // The same reply judged at two addresses: the judge changed, not one judge disagreeing with itself.
    const r = await cli(['compare', 'a.json', 'b.json'], cwd);
    const line = r.stdout.split('\n').find((l) => l.includes('kept-elsewhere')) ?? '';
    expect(line).toContain(`judge changed: endpoint ${elsewhere.url}/v1 → ${here.url}/v1`);
    expect(r.stdout).not.toContain('the judge answered the same reply');
    expect(of(a, 'kept-elsewhere')?.judgeReused).not.toBeNull();
  });

  it('keeps a judge\u2019s address without the credentials, query or fragment it may carry', () => {
    const judge = { provider: 'openai' as const, baseUrl: 'https://user:s3cret@proxy.example/v1/?token=t0ken#x', model: 'm', apiKey: null, ...JUDGE_CLIENT_DEFAULTS, label: null };
    expect(judgeEndpointOf(judge)).toBe('https://proxy.example/v1');
    expect(judgeEndpointOf({ ...judge, panel: [{}, { provider: 'anthropic' }, { baseUrl: 'http://127.0.0.1:9/x' }] })).toBe('https://proxy.example/v1, https://api.anthropic.com/v1, http://127.0.0.1:9/x');
  });
});
