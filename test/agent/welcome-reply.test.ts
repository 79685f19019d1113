// The welcome turn's reply path of one's own (`agent.start.response.reply`, docs/presets.md, "Any
// JSON API"): a welcome answer with fields but nothing at that path is most likely a typo, said once
// per run with the line of config.yml; a welcome that answers null or "" there, or no body, is a
// welcome with no greeting, silent. The config is loaded from a real config.yml, the agent is a real
// server on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient } from '../../src/agent/index.js';
import type { AgentClient } from '../../src/types.js';
import { startAgentServer, type AgentHandler } from '../support/agent-server.js';
import { C, F, OK_FIXTURE, load } from '../suite/helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A client for config.yml's agent section (the url is the server's), and the warnings it gives. */
async function clientFor(agentYaml: string, welcome: AgentHandler): Promise<{ client: AgentClient; warnings: string[] }> {
  const server = await startAgentServer((req) => ((req.json as { start?: unknown } | undefined)?.start === true ? welcome(req) : { json: { reply: 'echo' } }));
  cleanups.push(() => server.close());
  const loaded = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: `agent:\n  url: ${server.url}\n${agentYaml}` });
  expect(loaded.errors).toEqual([]);
  const warnings: string[] = [];
  const client = createHttpAgentClient({ ...loaded.suite!.config.agent, retries: 0 }, { clock: { now: () => 0, sleep: async () => undefined }, onWarning: (m) => warnings.push(m) });
  cleanups.push(() => client.close());
  return { client, warnings };
}

const request = { session: 's', message: 'hi', persona: null };
const OWN_PATH = '  start:\n    body: { session: "{{session}}", start: true }\n    response: { reply: greting }\n';

describe('the welcome turn reply path of ones own', () => {
  it('a welcome answer with fields but nothing at agent.start.response.reply is read as no greeting and said once, with the line, the path and the keys', async () => {
    const { client, warnings } = await clientFor(OWN_PATH, () => ({ json: { greeting: 'Welcome!', ended: false } }));
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'echo' });
    const session = client.session({ session: 's2', persona: null, mocks: [] });
    expect(await session.welcome()).toMatchObject({ kind: 'replied', reply: '' });
    expect(await client.session({ session: 's3', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: '' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^welcome turn: /);
    expect(warnings[0]).toContain('welcome turn: response has no string at "greting" (found nothing; the response is an object (keys: greeting, ended); its text may be at "greeting"); agent.start.response.reply is set at .agent-replay/config.yml:5.');
    expect(warnings[0]).toContain('The welcome is read as having no greeting');
    expect(warnings[0]).toContain('Told once per run.');
  });

  it('told first for a persona script, the warning names the turn as the script\'s errors do: turn 0 (welcome)', async () => {
    // A fixture's errors name it "welcome turn", a script's "turn 0 (welcome)" (words.ts turnWords): the
    // warning, told once, names it as the item that met it first does, as the unread-usage warning does.
    const { client, warnings } = await clientFor(OWN_PATH, () => ({ json: { greeting: 'Welcome!' } }));
    expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: '' });
    expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'echo' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^turn 0 \(welcome\): response has no string at "greting" /);
  });

  it('null or "" at the path, no body, or an empty object is a welcome with no greeting, silent; so is a welcome read by the message turns path', async () => {
    for (const answer of [{ json: { greting: null, ended: false } }, { json: { greting: '' } }, { status: 204 }, { json: {} }]) {
      const { client, warnings } = await clientFor(OWN_PATH, () => answer);
      expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: '' });
      expect(await client.converse(request)).toMatchObject({ kind: 'replied', reply: 'echo' });
      expect(warnings).toEqual([]);
    }
    // The native welcome, and one that reads agent.response.reply: no path set for the welcome itself.
    for (const yaml of ['  start: true\n', '  start: true\n  response: { reply: reply }\n']) {
      const { client, warnings } = await clientFor(yaml, () => ({ json: { route: { conversation: 'welcome', stage: 'greeting' }, ended: false } }));
      expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: '' });
      expect(warnings).toEqual([]);
    }
  });

  it('an NDJSON welcome whose lines have no string at the path is said too', async () => {
    const { client, warnings } = await clientFor(OWN_PATH, () => ({ headers: { 'content-type': 'application/x-ndjson' }, body: '{"greeting":"Wel"}\n{"greeting":"come"}\n' }));
    expect(await client.session({ session: 's', persona: null, mocks: [] }).welcome()).toMatchObject({ kind: 'replied', reply: '' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('response has no string at "greting" on any of its NDJSON lines (the last line is an object (keys: greeting); its text may be at "greeting"); agent.start.response.reply is set at .agent-replay/config.yml:5.');
  });
});
