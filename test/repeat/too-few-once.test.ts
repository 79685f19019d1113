// Too few attempts, said once (docs/statistics.md): after a nightly `run --repeat 10` and `accept`,
// every ordinary run (one attempt an item) has `stats` with the tier `too_few` on every item. An
// unchanged agent read "too few attempts" on each of its 20 lines, in the terminal, the comment and
// the job summary. The record keeps the tier; the surfaces say it once for the run, with what
// `--repeat` would tell, and on an item's line only where its rate fell. The agent words each reply
// one of three ways (formatting only), chosen by a seeded generator, as a hosted model does.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentHandler } from '../support/agent-server.js';
import { prng } from '../support/prng.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from '../cli/helpers.js';
import { renderComment, renderSummary } from '../../src/report/index.js';
import { ctx } from '../report/fixtures.js';

useCleanup();

const LABELS = Array.from({ length: 20 }, (_, i) => `item-${String(i + 1).padStart(2, '0')}`);
const FIXTURES = `fixtures:\n${LABELS.map((l) => `  - { label: ${l}, message: ${l}?, assert: { contains: "30" } }`).join('\n')}\n`;

let broken = '';
const random = prng(7);
const handler: AgentHandler = (req) => {
  const body = (req.json ?? {}) as { message?: string; start?: boolean };
  if (body.start === true) return { json: { reply: 'Welcome!', route: null } };
  if (body.message === `${broken}?`) return { json: { reply: 'Refunds take a month.', route: null } };
  const wordings = ['Refunds within 30 days.', 'Refunds within **30** days!', 'refunds within  30 days'];
  return { json: { reply: wordings[Math.floor(random() * wordings.length)], route: null } };
};

/** How many times `text` says it. */
const count = (text: string, words: string): number => text.toLowerCase().split(words).length - 1;

describe('a run of one attempt against baselines of 10', () => {
  it('says "too few attempts" once for the run, not on each line; an item whose rate fell keeps it', async () => {
    const agent = await serve(handler);
    // The baselines a nightly `run --repeat 10` then `accept` writes (test/repeat/accept-attempts.test.ts makes them so).
    const baselines = LABELS.map((label) => ({ label, reply: 'Refunds within 30 days.', route: null, verdict: 'pass' as const, attempts: { passed: 10, total: 10 }, acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40) }));
    const cwd = await makeProject({ config: `${agentConfig(agent.url)}cost: { capUsd: 5 }\nmeaning: { check: facts }\n`, fixtures: { 'f.yml': FIXTURES }, baselines });

    // Unchanged agent, one attempt an item.
    const quiet = await cli(['run', '--out', 'r.json', '--markdown', 'r.md', '--html', 'r.html', '--fail-on', 'none'], cwd);
    const r = await readResults(join(cwd, 'r.json'));
    // The record keeps the tier, as results.json's contract says.
    expect(r.fixtures.map((f) => f.stats?.tier)).toEqual(LABELS.map(() => 'too_few'));
    const note = 'too few attempts to tell a drop from noise for 20 items whose pass rate did not fall (not said on their lines); every attempt failing would be called regressed for each of them with --repeat 2, what a baseline of 10 attempts needs';
    // The CLI's surfaces name its flag; the PR comment, read on a pull request, the Action's input; the job summary, which both write, the two.
    const viaInput = note.replace('with --repeat 2,', "with the check step's repeat: 2 input,");
    const viaBoth = note.replace('with --repeat 2,', "with the check step's repeat: 2 input (--repeat 2 on the command line),");
    const surfaces: Record<'terminal' | 'markdown' | 'html' | 'comment' | 'summary', [text: string, said: string]> = {
      terminal: [quiet.stdout, note],
      markdown: [await readFile(join(cwd, 'r.md'), 'utf8'), note],
      html: [(await readFile(join(cwd, 'r.html'), 'utf8')).replace(/<[^>]*>/g, ''), note],
      comment: [renderComment(r, ctx), viaInput],
      summary: [renderSummary(r, ctx), viaBoth],
    };
    for (const [surface, [text, said]] of Object.entries(surfaces)) {
      expect(count(text, 'too few attempts'), surface).toBe(1);
      expect(text.replace(/`/g, '').toLowerCase(), surface).toContain(said);
      expect(text, surface).not.toContain('10/10 → 1/1');
    }
    expect(surfaces.comment[0]).not.toContain('--repeat');

    // One item's reply loses its fact and fails: its rate fell, and its line says so.
    broken = 'item-20';
    const fell = await cli(['run', '--out', 'r2.json', '--markdown', 'r2.md', '--fail-on', 'none'], cwd);
    const r2 = await readResults(join(cwd, 'r2.json'));
    // 10/10 → 0/1: pDrop = 1/11, below 0.2 with a fall of 100 points: likely regressed, on its line.
    const line = 'newly failing · reply changed · changed in meaning: numbers 30 → none · pass rate 10/10 → 0/1 (p = 0.091): likely regressed';
    for (const text of [fell.stdout, await readFile(join(cwd, 'r2.md'), 'utf8'), renderSummary(r2, ctx)]) {
      // The markdown's item line joins "p = 0.091" by no-break spaces (wrap.ts), the terminal's does not.
      expect(text.replaceAll('\u00a0', ' ')).toContain(line);
      expect(count(text, 'too few attempts')).toBe(1);
      expect(text.replace(/`/g, '')).toContain('for 19 items whose pass rate did not fall');
    }
  });
});
