// compare over two runs of a hosted rubric judge (docs/judges.md, "A judge that answers
// differently"): the agent gave the very same reply both times, the judge scored it 0.80 on one run
// and 0.40 on the next. compare and the comment's "Since the previous run" say the judge answered
// the same reply differently, both scores, not a bare "verdict pass -> fail" that reads as the agent's.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { completion } from '../simulator/server.js';
import { startServer, type Responder } from '../judge/server.js';
import { prng } from '../support/prng.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';
import { compareRuns } from '../../src/evaluate/index.js';
import { renderComment } from '../../src/report/markdown.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';

useCleanup();

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
    const server = await serve(agent);
    const judge = await startServer([noisy]);
    const cwd = await makeProject({
      config: `${agentConfig(server.url)}judge: { provider: openai, baseUrl: "${judge.url}", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
      fixtures: {
        'f.yml': [
          'fixtures:',
          '  - { label: returns, message: returns?, assert: { judge: "The reply is polite", threshold: 0.7 } }',
          '  - { label: listed, message: listed?, assert: [{ contains: "30 days" }, { judge: "The reply is polite", threshold: 0.7 }] }',
          '  - { label: changing, message: changing?, assert: { judge: "The reply is polite", threshold: 0.7 } }',
          '',
        ].join('\n'),
      },
      personas: { 'p.yml': 'label: calm-script\nopening: hello?\nexpect:\n  criteria: [ "Stayed calm", "The reply is polite" ]\n' },
    });
    await cli(['run', '--out', 'a.json', '--fail-on', 'none'], cwd);
    run = 1;
    score = 0.4;
    await cli(['run', '--out', 'b.json', '--fail-on', 'none'], cwd);
    await judge.close();
    const r = await cli(['compare', 'a.json', 'b.json', '--markdown', 'ab.md'], cwd);
    const line = (label: string): string => r.stdout.split('\n').find((l) => l.includes(label)) ?? '';
    expect(line('returns')).toContain('the judge answered the same reply differently: pass (0.80) -> fail (0.40)');
    // A persona script whose transcript is the same names the criterion that moved.
    expect(line('calm-script')).toContain('the judge answered the same transcript differently: criterion 2 pass (0.80) -> fail (0.40)');
    // An assertion list whose judge check is the one that moved says it too.
    expect(line('listed')).toContain('the judge answered the same reply differently: pass (0.80) -> fail (0.40)');
    // A reply that changed is the agent's doing, named as such.
    expect(line('changing')).toContain('reply changed: ');
    expect(line('changing')).not.toContain('the same reply');
    expect(r.stdout).toContain('why: 1 reply changed; 3 verdicts changed');
    const md = await readFile(join(cwd, 'ab.md'), 'utf8');
    expect(md).toContain('the judge answered the same reply differently');
    // The comment's "Since the previous run" says it beside the move.
    const [a, b] = [await readResults(join(cwd, 'a.json')), await readResults(join(cwd, 'b.json'))];
    const comment = renderComment(b, { ...DEFAULT_CONTEXT, previous: { runId: '41', comparison: compareRuns(a, b) } });
    expect(comment).toContain('- `returns`: pass → fail · the judge answered the same reply differently\\: pass \\(0.80\\) -&gt; fail \\(0.40\\)');
    expect(comment).toContain('- `changing`: pass → fail · reply changed');
  });
});
