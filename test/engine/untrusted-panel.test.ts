// A suite from untrusted code (a fork's pull request deployed by deployment_status, docs/security.md)
// may not choose where the judge's key, or a judge panel member's, is sent: the judge's baseUrl,
// and a member's own, must be the provider's own API or the judge address the workflow gave. Real loopback servers: the agent, the
// panel judge (the address the workflow gives) and a "thief" judge (the address the fork chose).

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCheck, type CheckOptions } from '../../src/engine.js';
import { formatIssue } from '../../src/suite/index.js';
import type { Clock } from '../../src/types.js';
import { startAgentServer, type AgentServer } from '../support/agent-server.js';
import { startPanelJudge } from '../judge/panel-server.js';
import { json, startServer, type TestServer } from '../judge/server.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

const dirs: string[] = [];
const servers: (AgentServer | TestServer)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

const clock: Clock = { now: () => 1_000_000, sleep: async () => undefined };
const KEY = 'judge-key-0123456789';
const FORK = 'the head of #12, from a fork';

async function project(agentUrl: string, memberBaseUrl: string): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-untrusted-panel-'));
  dirs.push(cwd);
  const dir = join(cwd, '.agent-replay');
  await mkdir(join(dir, 'fixtures'), { recursive: true });
  await writeFile(
    join(dir, 'config.yml'),
    `agent:\n  url: ${agentUrl}\n  retries: 0\n` +
      'judge:\n  provider: openai\n  model: m0\n  apiKey: "${JUDGE_KEY}"\n  retries: 0\n  backoffMs: 1\n' +
      `  panel:\n    - { model: m0 }\n    - { model: m1, baseUrl: "${memberBaseUrl}" }\n    - { model: m2 }\n` +
      'cost: { capUsd: 5 }\n',
  );
  await writeFile(join(dir, 'fixtures', 'f.yml'), 'label: polite\nmessage: hello\nassert: { judge: "split PPP" }\n');
  return cwd;
}

function options(cwd: string, judgeBaseUrl: string): CheckOptions {
  return {
    dir: '.agent-replay',
    cwd,
    env: { JUDGE_KEY: KEY },
    confirmCost: false,
    failOn: ['newly_failing'],
    commit: null,
    untrustedSuite: FORK,
    // The judge-base-url input (from the default branch's workflow file).
    overrides: { judge: { baseUrl: judgeBaseUrl } },
  };
}

describe('a judge panel from untrusted code', () => {
  it("a member's own baseUrl other than the given judge address is refused: nothing is sent, the key goes nowhere", async () => {
    const agent = await startAgentServer();
    const judge = await startPanelJudge();
    const thief = await startPanelJudge();
    servers.push(agent, judge, thief);
    const cwd = await project(agent.url, thief.url);
    const result = await runCheck(options(cwd, judge.url), { clock });
    expect(result.kind).toBe('config_errors');
    if (result.kind !== 'config_errors') return;
    quotedAndSaid(result.errors.map(formatIssue).join('\n'), ".agent-replay/config.yml:<line>:<column>: judge.panel[<i>].baseUrl in this commit's config.yml is <origin>, but the commit is <a fork's pull request>: ...");
    expect(result.errors.map((e) => e.message)).toEqual([
      `judge.panel[1].baseUrl in this commit's config.yml is ${new URL(thief.url).origin}, but the commit is ${FORK}: its config.yml may not choose where the panel member's key is sent (only to https://api.openai.com/v1, the openai API)`,
    ]);
    // Said at the member's baseUrl (line 12: `    - { model: m1, baseUrl: "..." }`).
    expect(result.errors.map((e) => [e.file, e.line, e.column])).toEqual([['.agent-replay/config.yml', 12, 29]]);
    expect(JSON.stringify(result.errors)).not.toContain(KEY);
    expect(thief.received).toHaveLength(0);
    expect(judge.received).toHaveLength(0);
    expect(agent.requests).toHaveLength(0);
  });

  it('a member whose own baseUrl is the given judge address runs: every member is asked there, with the key', async () => {
    const agent = await startAgentServer();
    const judge = await startPanelJudge();
    servers.push(agent, judge);
    const cwd = await project(agent.url, judge.url);
    const result = await runCheck(options(cwd, judge.url), { clock });
    expect(result.kind).toBe('ran');
    if (result.kind !== 'ran') return;
    expect(result.record.fixtures[0]?.verdict).toBe('pass');
    expect(judge.received.map((r) => (r.body as { model: string }).model).sort()).toEqual(['m0', 'm1', 'm2']);
    expect(judge.received.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});

describe('a judge from untrusted code', () => {
  it("its config.yml's judge.baseUrl is refused, sending nothing; the same address given by the workflow (the judge-base-url input) is used, with the key", async () => {
    const agent = await startAgentServer();
    const thief = await startServer([json(200, { choices: [{ message: { role: 'assistant', content: '{"rationale": "ok", "score": 1}' } }] })]);
    servers.push(agent, thief);
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-untrusted-judge-'));
    dirs.push(cwd);
    await mkdir(join(cwd, '.agent-replay', 'fixtures'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'config.yml'), `agent:\n  url: ${agent.url}\n  retries: 0\njudge: { provider: openai, baseUrl: "${thief.url}", model: m, retries: 0 }\ncost: { capUsd: 5 }\n`);
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), 'label: greeting\nmessage: hello\nassert: { judge: "Greets the user", threshold: 0.5 }\n');
    const base: CheckOptions = { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null, untrustedSuite: FORK };

    const refused = await runCheck({ ...base, overrides: { judge: { apiKey: KEY } } }, { clock });
    expect(refused.kind).toBe('config_errors');
    if (refused.kind !== 'config_errors') return;
    quotedAndSaid(refused.errors.map(formatIssue).join('\n'), ".agent-replay/config.yml:<line>:<column>: judge.baseUrl in this commit's config.yml is <origin>, but the commit is <a fork's pull request>: ...");
    expect(refused.errors.map((e) => e.message)).toEqual([
      `judge.baseUrl in this commit's config.yml is ${new URL(thief.url).origin}, but the commit is ${FORK}: its config.yml may not choose where the judge key is sent (only to https://api.openai.com/v1, the openai API)`,
    ]);
    // Said at judge.baseUrl (line 4: `judge: { provider: openai, baseUrl: "..." }`).
    expect(refused.errors.map((e) => [e.file, e.line, e.column])).toEqual([['.agent-replay/config.yml', 4, 37]]);
    // Its fix ends as every steered key's does (the panel member's, the simulator's, the meaning judge's).
    expect(refused.errors.map((e) => e.fix)).toEqual([
      'give the judge address with the judge-base-url input of the workflow (the workflow file comes from the default branch), or remove judge.baseUrl from config.yml, or run the suite from a trusted commit',
    ]);
    expect(thief.received).toHaveLength(0);
    expect(agent.requests).toHaveLength(0);

    const allowed = await runCheck({ ...base, overrides: { judge: { apiKey: KEY, baseUrl: thief.url } } }, { clock });
    expect(allowed.kind).toBe('ran');
    if (allowed.kind !== 'ran') return;
    expect(allowed.record.fixtures[0]?.verdict).toBe('pass');
    expect(thief.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
  });
});

describe('a suite whose config file is config.yaml, from untrusted code', () => {
  it('every steered-key refusal names config.yaml, the file the suite has, in its words and its fix', async () => {
    const agent = await startAgentServer();
    const judge = await startPanelJudge();
    const thief = await startPanelJudge();
    servers.push(agent, judge, thief);
    const origin = new URL(thief.url).origin;
    const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-untrusted-yaml-'));
    dirs.push(cwd);
    await mkdir(join(cwd, '.agent-replay', 'fixtures'), { recursive: true });
    await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), 'label: polite\nmessage: hello\nassert: { judge: "split PPP" }\n');
    const refusal = async (config: string, overrides: CheckOptions['overrides']) => {
      await writeFile(join(cwd, '.agent-replay', 'config.yaml'), `agent:\n  url: ${agent.url}\n  retries: 0\n${config}cost: { capUsd: 5 }\n`);
      const result = await runCheck({ ...options(cwd, judge.url), overrides }, { clock });
      expect(result.kind).toBe('config_errors');
      return result.kind === 'config_errors' ? result.errors : [];
    };
    const judgeAt = (baseUrl: string) => `judge:\n  provider: openai\n  baseUrl: "${baseUrl}"\n  model: m0\n  apiKey: "\${JUDGE_KEY}"\n  retries: 0\n`;

    expect(await refusal(judgeAt(thief.url), { judge: { apiKey: KEY } })).toEqual([
      {
        file: '.agent-replay/config.yaml',
        line: 6,
        column: 12,
        message: `judge.baseUrl in this commit's config.yaml is ${origin}, but the commit is ${FORK}: its config.yaml may not choose where the judge key is sent (only to https://api.openai.com/v1, the openai API)`,
        fix: 'give the judge address with the judge-base-url input of the workflow (the workflow file comes from the default branch), or remove judge.baseUrl from config.yaml, or run the suite from a trusted commit',
      },
    ]);
    const panel = `judge:\n  provider: openai\n  model: m0\n  apiKey: "\${JUDGE_KEY}"\n  panel:\n    - { model: m0 }\n    - { model: m1, baseUrl: "${thief.url}" }\n    - { model: m2 }\n`;
    expect(await refusal(panel, { judge: { baseUrl: judge.url } })).toEqual([
      {
        file: '.agent-replay/config.yaml',
        line: 10,
        column: 29,
        message: `judge.panel[1].baseUrl in this commit's config.yaml is ${origin}, but the commit is ${FORK}: its config.yaml may not choose where the panel member's key is sent (only to https://api.openai.com/v1, the openai API)`,
        fix: 'remove judge.panel[1].baseUrl from config.yaml (the panel member then uses the judge address the workflow gives), or run the suite from a trusted commit',
      },
    ]);
    const kept = await refusal(`${judgeAt(thief.url)}simulator: { provider: openai, model: s }\n`, { judge: { provider: 'anthropic', baseUrl: judge.url } });
    expect(kept.map((e) => [e.file, e.line, e.message, e.fix])).toEqual([
      [
        '.agent-replay/config.yaml',
        6,
        `judge.baseUrl in this commit's config.yaml is ${origin}, kept for simulator (provider: openai, config.yaml's judge provider, which the judge-provider input changed to anthropic), but the commit is ${FORK}: its config.yaml may not choose where the simulator's key is sent (only to https://api.openai.com/v1, the openai API)`,
        'remove judge.baseUrl from config.yaml (simulator then uses https://api.openai.com/v1, the openai API), or remove the judge-provider input (simulator then uses the judge-base-url address), or run the suite from a trusted commit',
      ],
    ]);
    expect(JSON.stringify([thief.received, judge.received, agent.requests])).toBe('[[],[],[]]');
  });
});

describe("config.yml's judge.baseUrl kept by the judge-provider input for what names its provider, from untrusted code", () => {
  // The fork wrote judge.baseUrl (the thief) and a panel member, simulator or meaning judge naming
  // openai without an address; the workflow switches the judge to anthropic and gives the judge's
  // address. The one naming openai keeps the fork's judge.baseUrl (docs/judges.md, "The
  // judge-provider input"): refused, and the refusal names judge.baseUrl, the key the fork wrote.
  const sections = {
    'judge.panel[2]': { section: '  panel:\n    - { model: m0 }\n    - { model: m1 }\n    - { provider: openai, model: m2 }\n', whose: "the panel member's key" },
    simulator: { section: 'simulator: { provider: openai, model: s }\n', whose: "the simulator's key" },
    meaning: { section: 'meaning: { provider: openai, model: q }\n', whose: "the meaning judge's key" },
  };
  for (const [member, { section, whose }] of Object.entries(sections)) {
    it(`${member} naming config.yml's provider: the refusal names judge.baseUrl, and nothing is sent`, async () => {
      const agent = await startAgentServer();
      const judge = await startPanelJudge();
      const thief = await startPanelJudge();
      servers.push(agent, judge, thief);
      const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-untrusted-kept-'));
      dirs.push(cwd);
      await mkdir(join(cwd, '.agent-replay', 'fixtures'), { recursive: true });
      const judgeSection = `judge:\n  provider: openai\n  baseUrl: "${thief.url}"\n  model: m0\n  apiKey: "\${JUDGE_KEY}"\n  retries: 0\n`;
      await writeFile(join(cwd, '.agent-replay', 'config.yml'), `agent:\n  url: ${agent.url}\n  retries: 0\n${judgeSection}${section}cost: { capUsd: 5 }\n`);
      await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), 'label: polite\nmessage: hello\nassert: { judge: "split PPP" }\n');
      const result = await runCheck({ ...options(cwd, judge.url), overrides: { judge: { provider: 'anthropic', baseUrl: judge.url } } }, { clock });
      expect(result.kind).toBe('config_errors');
      if (result.kind !== 'config_errors') return;
      expect(result.errors).toEqual([
        {
          // At the judge.baseUrl the fork wrote (line 6), not at the member, which names no address.
          file: '.agent-replay/config.yml',
          line: 6,
          column: 12,
          message: `judge.baseUrl in this commit's config.yml is ${new URL(thief.url).origin}, kept for ${member} (provider: openai, config.yml's judge provider, which the judge-provider input changed to anthropic), but the commit is ${FORK}: its config.yml may not choose where ${whose} is sent (only to https://api.openai.com/v1, the openai API)`,
          fix: `remove judge.baseUrl from config.yml (${member} then uses https://api.openai.com/v1, the openai API), or remove the judge-provider input (${member} then uses the judge-base-url address), or run the suite from a trusted commit`,
        },
      ]);
      const quoted =
        member === 'judge.panel[2]'
          ? ".agent-replay/config.yml:<line>:<column>: judge.baseUrl in this commit's config.yml is <origin>, kept for judge.panel[<i>] (provider: openai, config.yml's judge provider, which the judge-provider input changed to anthropic), but the commit is <a fork's pull request>: ..."
          : `kept for ${member}`;
      quotedAndSaid(result.errors.map(formatIssue).join('\n'), quoted);
      expect(JSON.stringify(result.errors)).not.toContain(KEY);
      expect(thief.received).toHaveLength(0);
      expect(judge.received).toHaveLength(0);
      expect(agent.requests).toHaveLength(0);
    });
  }
});
