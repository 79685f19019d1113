// The engine shared by the CLI and the Action: nothing is built or spent before the suite is valid
// and the cost cap allows it; whatever is built is closed.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/secrets.js';
import { agentHost, runCheck, type CheckOptions, type EngineDeps } from '../../src/engine.js';
import { urlEndpoint } from '../../src/endpoint.js';
import { startServer } from '../judge/server.js';
import type { AgentClient, Judge, RegexEvaluator } from '../../src/types.js';
import { noSessions, noTranscripts } from '../support/fakes.js';
import { startAgentServer } from '../support/agent-server.js';
import { renderComment, DEFAULT_CONTEXT } from '../../src/report/index.js';
import { serializeRecord } from '../../src/record/index.js';
import { serializeBaseline } from '../../src/suite/index.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';

const dirs: string[] = [];
afterEach(async () => {
  while (dirs.length > 0) await rm(dirs.pop() as string, { recursive: true, force: true });
});

async function suite(config: string, fixtures: string, configName = 'config.yml'): Promise<string> {
  const cwd = await mkdtemp(join(tmpdir(), 'agent-replay-engine-'));
  dirs.push(cwd);
  await mkdir(join(cwd, '.agent-replay', 'fixtures'), { recursive: true });
  await writeFile(join(cwd, '.agent-replay', configName), config);
  await writeFile(join(cwd, '.agent-replay', 'fixtures', 'f.yml'), fixtures);
  return cwd;
}

function options(cwd: string, over: Partial<CheckOptions> = {}): CheckOptions {
  return { dir: '.agent-replay', cwd, env: {}, confirmCost: false, failOn: ['newly_failing'], commit: null, ...over };
}

/** Fakes that record what was built and closed. */
function fakes() {
  const log: string[] = [];
  const agent: AgentClient = {
    converse: async (req) => {
      log.push(`converse ${req.message}`);
      return { kind: 'replied', reply: `echo: ${req.message}`, route: { conversation: 'c', stage: 's' }, offTrack: [], ended: false, turns: 2 };
    },
    session: noSessions,
    close: async () => void log.push('agent closed'),
  };
  const regex: RegexEvaluator = { test: async () => ({ kind: 'no_match' }), close: async () => void log.push('regex closed') };
  const judge: Judge = {
    name: 'fake judge',
    score: async () => ({ ok: true, score: 0.8, rationale: 'fine' }),
    scoreTranscript: noTranscripts,
    close: async () => void log.push('judge closed'),
  };
  const deps: EngineDeps = {
    makeAgent: () => (log.push('agent built'), agent),
    makeRegexPool: () => (log.push('regex built'), regex),
    makeJudge: () => (log.push('judge built'), judge),
  };
  return { log, deps };
}

const FIXTURES = 'fixtures:\n  - { label: a, message: a, assert: { judge: "polite" } }\n  - { label: b, message: b, assert: { regex: "x" } }\n';

describe('runCheck', () => {
  it('builds nothing when the suite has configuration errors', async () => {
    const cwd = await suite('agent:\n  url: http://127.0.0.1:9/chat\n  bogus: 1\n', FIXTURES);
    const { log, deps } = fakes();
    const result = await runCheck(options(cwd), deps);
    expect(result.kind).toBe('config_errors');
    if (result.kind === 'config_errors') expect(result.errors[0]).toMatchObject({ file: '.agent-replay/config.yml', line: 3 });
    expect(log).toEqual([]);
  });

  it('builds nothing above the cost cap unless confirmed', async () => {
    const cwd = await suite('agent:\n  url: http://127.0.0.1:9/chat\ncost: { capUsd: 0.02 }\n', FIXTURES);
    const refused = fakes();
    const result = await runCheck(options(cwd), refused.deps);
    expect(result).toMatchObject({ kind: 'refused', fixtureCount: 2, judgeCalls: 1, estimate: { usd: 0.045, capUsd: 0.02, aboveCap: true, confirmed: false } });
    expect(refused.log).toEqual([]);

    const confirmed = fakes();
    const ran = await runCheck(options(cwd, { confirmCost: true }), confirmed.deps);
    expect(ran.kind).toBe('ran');
    if (ran.kind === 'ran') expect(ran.record.estimate).toMatchObject({ aboveCap: true, confirmed: true });
  });

  it('estimates the turns actually sent: one per fixture without a welcome turn, unless turnsPerFixture is set', async () => {
    const estimate = async (config: string) => {
      const result = await runCheck(options(await suite(config, FIXTURES), { confirmCost: true }), fakes().deps);
      return result.kind === 'ran' ? result.record.estimate.usd : result.kind;
    };
    // 2 fixtures x turns x $0.01 + 1 judge call x $0.005
    expect(await estimate('agent:\n  url: http://127.0.0.1:9/chat\n')).toBe(0.045);
    expect(await estimate('agent:\n  url: http://127.0.0.1:9/chat\n  preset: openai-chat\n  model: m\n')).toBe(0.025);
    expect(await estimate('agent:\n  url: http://127.0.0.1:9/chat\n  start: false\n')).toBe(0.025);
    expect(await estimate('agent:\n  url: http://127.0.0.1:9/chat\n  start: false\ncost: { turnsPerFixture: 2 }\n')).toBe(0.045);
    expect(await estimate('agent:\n  url: http://127.0.0.1:9/chat\ncost: { turnsPerFixture: 3 }\n')).toBe(0.065);
  });

  it('replays with the built clients, names the judge, gates, and closes everything', async () => {
    const cwd = await suite('agent:\n  url: https://user:pw@preview.example.com:8443/api/chat?token=abc\n', FIXTURES);
    const { log, deps } = fakes();
    const result = await runCheck(options(cwd, { commit: 'f'.repeat(40) }), deps);
    expect(result.kind).toBe('ran');
    if (result.kind !== 'ran') return;
    expect(result.record.fixtures.map((f) => [f.label, f.verdict])).toEqual([
      ['a', 'pass'],
      ['b', 'fail'],
    ]);
    expect(result.record.judge.name).toBe('fake judge');
    expect(result.record.agent.host).toBe('preview.example.com:8443');
    expect(result.record.commit).toBe('f'.repeat(40));
    expect(result.gate.failed).toBe(false);
    expect(log.slice(0, 3)).toEqual(['agent built', 'regex built', 'judge built']);
    expect(log.slice(-3).sort()).toEqual(['agent closed', 'judge closed', 'regex closed']);
  });

  it('closes what it built when a later factory throws', async () => {
    const cwd = await suite('agent:\n  url: http://127.0.0.1:9/chat\n', FIXTURES);
    const { log, deps } = fakes();
    deps.makeJudge = () => {
      throw new Error('judge config broken');
    };
    await expect(runCheck(options(cwd), deps)).rejects.toThrow('judge config broken');
    expect(log.filter((l) => l.endsWith('closed')).sort()).toEqual(['agent closed', 'regex closed']);
  });

  it('agentHost keeps only the host: never credentials, path or query', () => {
    expect(agentHost('https://user:pw@example.com/chat?token=x')).toBe('example.com');
    expect(agentHost('not a url')).toBeNull();
    expect(agentHost(null)).toBeNull();
  });

  it('agentHost redacts a host that is a secret, as urlEndpoint does', () => {
    expect(agentHost('http://preview-4f2a9c.internal.example/chat', makeRedactor(['preview-4f2a9c.internal.example']))).toBe('***');
  });

  it('a host read from ${NAME} (a secret) is not in results.json nor in the comment (docs/security.md, "Secrets")', async () => {
    const agent = await startAgentServer(() => ({ json: { reply: 'Hello', route: { conversation: 'c', stage: 's' } } }));
    try {
      const hostPort = new URL(agent.url).host;
      const cwd = await suite('agent:\n  url: http://${AGENT_HOST}/chat\n  start: false\n', 'fixtures:\n  - { label: a, message: hi, assert: { contains: Hello } }\n');
      const result = await runCheck(options(cwd, { env: { AGENT_HOST: hostPort } }), { makeRegexPool: fakes().deps.makeRegexPool });
      expect(result.kind).toBe('ran');
      if (result.kind !== 'ran') return;
      expect(result.record.fixtures[0]?.verdict).toBe('pass');
      expect(result.record.agent.endpoint).toBe('http://***/chat');
      expect(serializeRecord(result.record)).not.toContain(hostPort);
      expect(renderComment(result.record, DEFAULT_CONTEXT)).not.toContain(hostPort);
    } finally {
      await agent.close();
    }
  });

  it("the agent client is told the suite's config file: a config.yaml suite's stored error names config.yaml (docs/configuration.md)", async () => {
    // A stream of the agent's own JSON with no reply path set: the fix is to set one in the suite's file.
    const agent = await startAgentServer(() => ({ headers: { 'content-type': 'text/event-stream' }, body: 'data: {"reply":"Hi"}\n\n' }));
    try {
      const cwd = await suite(`agent:\n  url: ${agent.url}/chat\n  start: false\n  retries: 0\n`, 'fixtures:\n  - { label: a, message: hi, assert: { contains: Hi } }\n', 'config.yaml');
      const result = await runCheck(options(cwd), { makeRegexPool: fakes().deps.makeRegexPool });
      expect(result.kind).toBe('ran');
      if (result.kind !== 'ran') return;
      expect(result.record.configName).toBe('config.yaml');
      expect(result.record.fixtures[0]?.error).toBe(
        'message turn: no reply text and no tool call could be read from the stream (JSON events of no known format, 1 event: {reply}): set agent.response.reply in config.yaml to the path of the text in each event',
      );
    } finally {
      await agent.close();
    }
  });

  it('urlEndpoint keeps scheme, host and path: never credentials, query or fragment, and redacts secrets in the path', () => {
    expect(urlEndpoint('https://user:pw@example.com/api/chat?token=x#f')).toBe('https://example.com/api/chat');
    expect(urlEndpoint('https://hooks.example.com/agent/s3cr3t-path-token', makeRedactor(['s3cr3t-path-token']))).toBe('https://hooks.example.com/agent/***');
    expect(urlEndpoint('not a url')).toBeNull();
    expect(urlEndpoint(null)).toBeNull();
  });

  // A token in a judge's or the agent's path, written into config.yml rather than read from
  // `${NAME}`, is no configured secret: it is hidden all the same (docs/security.md, "Secrets").
  it('a token-looking path segment of the judge\'s or the agent\'s address is in neither results.json nor the comment', async () => {
    const TOKEN = 'sk-live-4f9aC2b7D1e8F0a3B6c5';
    const HOOK = 'AbCdEf0123456789XyZw';
    const agent = await startAgentServer(() => ({ json: { reply: 'Hello', route: { conversation: 'c', stage: 's' } } }));
    const judge = await startServer([(res) => (res.writeHead(200, { 'content-type': 'application/json' }), res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"rationale": "fine", "score": 0.9}' } }] })))]);
    try {
      const cwd = await suite(
        `agent:\n  url: ${agent.url}/hooks/${HOOK}/chat/\n  start: false\njudge: { provider: openai, baseUrl: "${judge.url}/gw/${TOKEN}/v1/", model: m, apiKey: k, retries: 0 }\ncost: { capUsd: 1 }\n`,
        'fixtures:\n  - { label: a, message: hi, assert: { judge: "says hello" } }\n  - { label: kept, message: hi, assert: { judge: "greets" } }\n',
      );
      // A baseline accepted before tokens were hidden keeps the address as it was written: the same judge.
      const fingerprint = { model: 'openai/m', endpoint: `${judge.url}/gw/${TOKEN}/v1`, promptVersion: JUDGE_PROMPT_VERSION, criteria: [{ criterion: 'greets', threshold: 0.7 }] };
      await mkdir(join(cwd, '.agent-replay', 'baselines'));
      await writeFile(join(cwd, '.agent-replay', 'baselines', 'kept.json'), serializeBaseline({ label: 'kept', reply: 'Hello', route: { conversation: 'c', stage: 's' }, verdict: 'pass', acceptedAt: '2026-11-01T10:00:00.000Z', commit: 'a'.repeat(40), judge: { score: 0.8, rationale: 'greets', fingerprint } }));
      const result = await runCheck(options(cwd), { makeRegexPool: fakes().deps.makeRegexPool });
      expect(result.kind).toBe('ran');
      if (result.kind !== 'ran') return;
      // The judge was asked at its address, token and all, once: only what is written down hides it.
      expect(judge.received.map((r) => r.url)).toEqual([`/gw/${TOKEN}/v1/chat/completions`]);
      expect(result.record.fixtures[0]?.verdict).toBe('pass');
      expect(result.record.fixtures[1]?.judgeReused).toMatchObject({ commit: 'a'.repeat(40) });
      expect(result.record.fixtures[0]?.judgeFingerprint?.endpoint).toBe(`${judge.url}/gw/***/v1`);
      expect(result.record.meaning?.endpoint).toBe(`${judge.url}/gw/***/v1`);
      // The agent's URL is asked as written: its trailing "/" is kept, its token is not.
      expect(result.record.agent.endpoint).toBe(`${agent.url}/hooks/***/chat/`);
      for (const text of [serializeRecord(result.record), renderComment(result.record, DEFAULT_CONTEXT)]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(HOOK);
      }
    } finally {
      await Promise.all([agent.close(), judge.close()]);
    }
  });
});
