// A fixture whose message was edited in a pull request while its label stayed the same
// (docs/meaning.md, "An edited fixture"): its baseline's reply answered the old message, so the new
// reply is neither a rewording nor a change of it. End to end through the CLI, with a loopback
// agent and the demo's keyword judge as the meaning judge (it reads two replies without a number or
// a negation between them as the same meaning, 0.9).

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoServer, type DemoServer } from '../../src/demo/server.js';
import type { Baseline } from '../../src/types.js';
import { agentConfig, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();
let demo: DemoServer | null = null;
afterEach(async () => {
  await demo?.close();
  demo = null;
});

const OLD_MESSAGE = 'What is your refund window?';
const NEW_MESSAGE = 'How long does shipping take?';
const REPLIES: Record<string, string> = {
  [OLD_MESSAGE]: 'Refunds are accepted within a month of delivery.',
  [NEW_MESSAGE]: 'Shipping usually takes about a week.',
};
const fixtures = (message: string): Record<string, string> => ({ 'f.yml': `fixtures:\n  - { label: policy, message: "${message}" }\n` });
const baselineFile = (cwd: string): string => join(cwd, '.agent-replay', 'baselines', 'policy.json');

async function project(): Promise<{ cwd: string; meaningCalls: () => number }> {
  const agent = await serve((req) => {
    const body = (req.json ?? {}) as Record<string, unknown>;
    if (body.start === true) return { json: { reply: 'Welcome!', route: null, ended: false } };
    return { json: { reply: REPLIES[String(body.message)] ?? 'I do not know.', route: null, ended: false } };
  });
  demo = await startDemoServer();
  const config = `${agentConfig(agent.url)}judge:\n  provider: openai\n  baseUrl: "${demo.judgeBaseUrl}"\n  apiKey: x\n  model: demo\nmeaning: { check: judge }\ncost: { capUsd: 1 }\n`;
  const cwd = await makeProject({ config, fixtures: fixtures(OLD_MESSAGE) });
  const meaningCalls = async (): Promise<number> => (await readResults(join(cwd, 'r2.json'))).spend?.meaningCalls ?? 0;
  return { cwd, meaningCalls: meaningCalls as unknown as () => number };
}

describe('a fixture whose message was edited since its baseline', () => {
  it('accept stores the message the reply answered; an edited message is changed with its cause, costs no meaning call, and accept writes the new reply afresh', async () => {
    const { cwd } = await project();
    expect((await cli(['run', '--out', 'r1.json'], cwd)).code).toBe(0);
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);
    const first = JSON.parse(await readFile(baselineFile(cwd), 'utf8')) as Baseline;
    expect(first).toMatchObject({ label: 'policy', message: OLD_MESSAGE, reply: REPLIES[OLD_MESSAGE] });

    // The pull request edits the message and keeps the label.
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), fixtures(NEW_MESSAGE)['f.yml'] as string);
    const run = await cli(['run', '--out', 'r2.json', '--markdown', 'c.md', '--html', 'r.html'], cwd);
    expect(run.code, run.stderr).toBe(0);
    const record = await readResults(join(cwd, 'r2.json'));
    const f = record.fixtures[0]!;
    expect(f.drift?.meaning).toEqual({ value: 'changed', by: 'message', detail: "the fixture's message was edited since the baseline" });
    expect(record.spend).toMatchObject({ meaningCalls: 0 });
    const md = await readFile(join(cwd, 'c.md'), 'utf8');
    expect(md).not.toContain('reworded');
    expect(md).toContain('No new failures: 1 changed');
    expect(md).toContain('reply changed · changed: the fixture&#39;s message was edited since the baseline');
    expect(run.stdout).not.toContain('reworded');
    expect(run.stdout).toContain("changed: the fixture's message was edited since the baseline");
    expect(await readFile(join(cwd, 'r.html'), 'utf8')).toContain('changed: the fixture&#39;s message was edited since the baseline');

    // Accepting writes the new reply as a new measurement: the new message, no variant of the old question's reply.
    expect((await cli(['accept', '--results', 'r2.json'], cwd)).code).toBe(0);
    const second = JSON.parse(await readFile(baselineFile(cwd), 'utf8')) as Baseline;
    expect(second).toMatchObject({ message: NEW_MESSAGE, reply: REPLIES[NEW_MESSAGE] });
    expect(second.variants).toBeUndefined();
  });

  it('an edited persona tag is another message too; a baseline accepted before messages were kept is compared as before, and not rewritten only to add one', async () => {
    const { cwd } = await project();
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), `fixtures:\n  - { label: policy, message: "${OLD_MESSAGE}", persona: new-customer }\n`);
    expect((await cli(['run', '--out', 'r1.json'], cwd)).code).toBe(0);
    expect((await cli(['accept', '--results', 'r1.json'], cwd)).code).toBe(0);
    const kept = JSON.parse(await readFile(baselineFile(cwd), 'utf8')) as Baseline;
    expect(kept).toMatchObject({ message: OLD_MESSAGE, persona: 'new-customer' });

    // The persona tag edited: the reply (here the same words) is not compared with the baseline's as
    // a rewording; an agent that answers otherwise is "changed" with the cause.
    await writeFile(baselineFile(cwd), `${JSON.stringify({ ...kept, reply: 'Refunds are accepted for a month after delivery.' }, null, 2)}\n`);
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), `fixtures:\n  - { label: policy, message: "${OLD_MESSAGE}", persona: returning-customer }\n`);
    expect((await cli(['run', '--out', 'r2.json'], cwd)).code).toBe(0);
    const r2 = await readResults(join(cwd, 'r2.json'));
    expect(r2.fixtures[0]?.drift?.meaning).toEqual({ value: 'changed', by: 'message', detail: "the fixture's message was edited since the baseline" });
    expect(r2.spend).toMatchObject({ meaningCalls: 0 });

    // An older baseline (no message kept): the meaning is asked as before.
    const { message: _m, persona: _p, ...older } = kept;
    await writeFile(baselineFile(cwd), `${JSON.stringify({ ...older, reply: 'Refunds are accepted for a month after delivery.' }, null, 2)}\n`);
    expect((await cli(['run', '--out', 'r3.json'], cwd)).code).toBe(0);
    const r3 = await readResults(join(cwd, 'r3.json'));
    expect(r3.fixtures[0]?.drift?.meaning).toMatchObject({ value: 'reworded', by: 'judge' });
    expect(r3.spend).toMatchObject({ meaningCalls: 1 });

    // The same reply as an older baseline's: accept leaves the file as it is (not rewritten only to add the message).
    await writeFile(baselineFile(cwd), `${JSON.stringify(older, null, 2)}\n`);
    const before = await readFile(baselineFile(cwd), 'utf8');
    expect((await cli(['run', '--out', 'r4.json'], cwd)).code).toBe(0);
    const accepted = await cli(['accept', '--results', 'r4.json'], cwd);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(await readFile(baselineFile(cwd), 'utf8')).toBe(before);
  });
});
