import { describe, expect, it } from 'vitest';
import { NATIVE_MAPPING, NATIVE_START, OPENAI_CHAT_MAPPING, defaultConfig } from '../../src/config.js';
import { formatIssue } from '../../src/suite/index.js';
import { B, C, F, OK_FIXTURE, brief, load } from './helpers.js';

// The example files of docs/fixtures.md ("A fixture", "Baselines") and docs/configuration.md
// ("config.yml"), in their short form.
const DOC_SINGLE = `# .agent-replay/fixtures/refund-policy.yml: one fixture per file ...
label: refund-policy
message: Can I get my money back?
persona: returning-customer          # optional; a tag only, it does not change routing
assert: { regex: "30 days", flags: "i" }
# other assertion forms:
#   assert: { contains: "30 days" }
#   assert: { judge: "The reply refuses politely and offers an alternative.", threshold: 0.7 }
#   (no assert key: a probe)
`;

const DOC_LIST = `# ... or a list per file
fixtures:
  - { label: welcome-greeting, message: hello, assert: { contains: Welcome } }
  - { label: opening-hours, message: When are you open? }
`;

const DOC_CONFIG = `# .agent-replay/config.yml (every key optional; command-line flags and action inputs override)
agent:
  url: https://preview.example.com/api/chat
  headers: { Authorization: "Bearer \${AGENT_TOKEN}" }
  timeoutMs: 30000
  concurrency: 4
judge:
  provider: openai                   # openai (any OpenAI-compatible endpoint) | anthropic
  baseUrl: https://api.openai.com/v1
  model: gpt-4o-mini
  apiKey: \${JUDGE_API_KEY}
regex: { timeoutMs: 100 }
cost: { agentTurnUsd: 0.01, turnsPerFixture: 2, judgeCallUsd: 0.005, capUsd: 0.10 }
`;

const DOC_BASELINE = `{ "label": "refund-policy", "reply": "...", "route": { "conversation": "refunds", "stage": "policy" },
  "verdict": "pass", "acceptedAt": "2026-11-30T10:00:00Z", "commit": "<sha the reply was recorded at>" }
`;

const ENV = { AGENT_TOKEN: 'agent-token-123', JUDGE_API_KEY: 'sk-judge-456' };

describe('loadSuite: the documented examples', () => {
  it('loads the single-fixture file, the list file, the config and the baseline', async () => {
    const r = await load(
      {
        [`${F}/refund-policy.yml`]: DOC_SINGLE,
        [`${F}/greetings.yml`]: DOC_LIST,
        [C]: DOC_CONFIG,
        [`${B}/refund-policy.json`]: DOC_BASELINE,
      },
      { env: ENV },
    );
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const suite = r.suite!;
    // Sorted by path: greetings.yml before refund-policy.yml.
    expect(suite.fixtures).toEqual([
      {
        label: 'welcome-greeting',
        message: 'hello',
        persona: null,
        assertion: { kind: 'contains', value: 'Welcome' },
        file: `${F}/greetings.yml`,
        line: 3,
      },
      { label: 'opening-hours', message: 'When are you open?', persona: null, assertion: null, file: `${F}/greetings.yml`, line: 4 },
      {
        label: 'refund-policy',
        message: 'Can I get my money back?',
        persona: 'returning-customer',
        assertion: { kind: 'regex', pattern: '30 days', flags: 'i' },
        file: `${F}/refund-policy.yml`,
        line: 2,
      },
    ]);
    const c = suite.config;
    expect(c.agent.url).toBe('https://preview.example.com/api/chat');
    expect(c.agent.headers).toEqual({ Authorization: 'Bearer agent-token-123' });
    expect(c.agent.timeoutMs).toBe(30000);
    expect(c.agent.concurrency).toBe(4);
    expect(c.agent.preset).toBe('native');
    expect(c.agent.mapping).toEqual(NATIVE_MAPPING);
    expect(c.agent.start).toEqual(NATIVE_START);
    expect(c.judge).toEqual({
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      apiKey: 'sk-judge-456',
      timeoutMs: 30000,
      retries: 2,
      backoffMs: 250,
      concurrency: 4,
      label: null,
    });
    expect(c.regex).toEqual({ timeoutMs: 100, workers: 2 });
    expect(c.cost).toEqual({ agentTurnUsd: 0.01, turnsPerFixture: 2, judgeCallUsd: 0.005, capUsd: 0.1 });
    expect(c.secrets).toEqual(expect.arrayContaining(['agent-token-123', 'sk-judge-456']));
    expect(suite.baselines.get('refund-policy')).toEqual({
      label: 'refund-policy',
      reply: '...',
      route: { conversation: 'refunds', stage: 'policy' },
      verdict: 'pass',
      acceptedAt: '2026-11-30T10:00:00Z',
      commit: '<sha the reply was recorded at>',
    });
    expect(suite.dir).toBe(`${r.cwd}/.agent-replay`);
    expect(suite.baselinesDir).toBe(`${r.cwd}/.agent-replay/baselines`);
  });

  it('accepts the other assertion forms of docs/fixtures.md, with the default threshold', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: m\nassert: { contains: "30 days" }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: m\nassert: { judge: "The reply refuses politely and offers an alternative.", threshold: 0.7 }\n',
      [`${F}/c.yml`]: 'label: c\nmessage: m\nassert: { judge: "Polite." }\n',
      [`${F}/d.yml`]: 'label: d\nmessage: m\nassert: { regex: "^Hi" }\n',
      [C]: 'judge: { provider: openai, apiKey: k }\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => f.assertion)).toEqual([
      { kind: 'contains', value: '30 days' },
      { kind: 'judge', criterion: 'The reply refuses politely and offers an alternative.', threshold: 0.7 },
      { kind: 'judge', criterion: 'Polite.', threshold: 0.7 },
      { kind: 'regex', pattern: '^Hi', flags: '' },
    ]);
  });

  it('uses the defaults when there is no config file, and a null url', async () => {
    const r = await load({ [`${F}/ok.yml`]: OK_FIXTURE });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config).toEqual(defaultConfig());
    expect(r.suite!.config.agent.url).toBeNull();
    expect(r.suite!.baselines.size).toBe(0);
  });

  it('accepts an empty config file, .yaml files, nested folders and a bare list', async () => {
    const r = await load({
      [C]: '# nothing yet\n',
      [`${F}/b/nested.yaml`]: 'label: nested\nmessage: hi\n',
      [`${F}/a.yml`]: '- { label: one, message: "1" }\n- label: two\n  message: "2"\n',
      [`${F}/.hidden.yml`]: 'not: a fixture\n',
      [`${F}/notes.txt`]: 'ignored',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite!.fixtures.map((f) => [f.label, f.file, f.line])).toEqual([
      ['one', `${F}/a.yml`, 1],
      ['two', `${F}/a.yml`, 2],
      ['nested', `${F}/b/nested.yaml`, 1],
    ]);
  });

  it('takes an absolute suite folder and another folder name', async () => {
    const first = await load({ 'suites/chat/fixtures/x.yml': OK_FIXTURE }, { dir: 'suites/chat' });
    expect(first.errors).toEqual([]);
    expect(first.suite!.fixtures[0]!.file).toBe('suites/chat/fixtures/x.yml');
  });
});

describe('loadSuite: a large file', () => {
  it('one list file of 130,000 fixtures (4 MB, under the 8 MB a suite file may be) loads them all, with no RangeError', async () => {
    const list = Array.from({ length: 130_000 }, (_, i) => `- { label: f${i}, message: m }`).join('\n');
    const r = await load({ [C]: '', [`${F}/big.yml`]: `${list}\n` });
    expect(r.errors).toEqual([]);
    expect(r.suite?.fixtures).toHaveLength(130_000);
    expect(r.suite?.fixtures[129_999]?.label).toBe('f129999');
  });
});

describe('loadSuite: config resolution', () => {
  it('maps the openai-chat preset: mapping, no welcome turn, {{model}}', async () => {
    const r = await load({
      [F + '/ok.yml']: OK_FIXTURE,
      [C]: 'agent:\n  url: http://localhost:8000/v1/chat/completions\n  preset: openai-chat\n  model: gpt-4o-mini\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    const agent = r.suite!.config.agent;
    expect(agent.preset).toBe('openai-chat');
    expect(agent.model).toBe('gpt-4o-mini');
    expect(agent.mapping).toEqual(OPENAI_CHAT_MAPPING);
    expect(agent.start).toBeNull();
  });

  it('warns when openai-chat has no model for {{model}}', async () => {
    const r = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  preset: openai-chat\n' });
    expect(r.errors).toEqual([]);
    expect(brief(r.warnings)).toEqual([
      `${C}:2: the request body uses {{model}} but agent.model is not set: the agent will receive model: null`,
    ]);
  });

  it('lets request and response override fields of the preset mapping; start: true follows the response fields', async () => {
    const r = await load({
      [F + '/ok.yml']: OK_FIXTURE,
      [C]: `agent:
  start: true
  request:
    body: { sender: "{{session}}", text: "{{message}}", meta: { tag: "{{persona}}", n: 1, on: true, none: null } }
  response: { reply: "0.text", conversation: null, stage: "custom.stage" }
`,
    });
    expect(r.errors).toEqual([]);
    const agent = r.suite!.config.agent;
    expect(agent.mapping).toEqual({
      body: { sender: '{{session}}', text: '{{message}}', meta: { tag: '{{persona}}', n: 1, on: true, none: null } },
      reply: '0.text',
      conversation: null,
      stage: 'custom.stage',
      ended: 'ended',
      offTrack: 'offTrack',
      // Response paths of one's own do not inherit the native protocol's persona paths: another API's keys are not ours.
      toolCalls: null,
      outcome: null,
      errors: null,
      absentToolCallsAreNone: false,
      // Where the file sets the reply's path, named when no reply is there.
      replyAt: { path: '0.text', at: '.agent-replay/config.yml:5' },
      // A reply path of one's own: read on the events of a stream of the agent's own JSON too.
      ownReply: true,
    });
    const { replyAt: _replyAt, ...read } = agent.mapping;
    expect(agent.start).toEqual({ ...read, body: NATIVE_START.body });
    // Without start, a request body of one's own has no welcome turn.
    const custom = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  request:\n    body: { text: "{{message}}" }\n' });
    expect(custom.suite!.config.agent.start).toBeNull();
  });

  it('response paths of your own lend no decoded or native persona paths; openai-chat lends its raw tool_calls path', async () => {
    const mastraLike = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  request:\n    body: { messages: "{{messages}}" }\n  response: { reply: text, toolCalls: null }\n' });
    expect(mastraLike.suite!.config.agent.mapping).toMatchObject({ reply: 'text', toolCalls: null, outcome: null, errors: null });
    const withOwnErrors = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  response: { reply: text, errors: problems }\n' });
    expect(withOwnErrors.suite!.config.agent.mapping).toMatchObject({ toolCalls: null, outcome: null, errors: 'problems' });
    const decoded = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  preset: anthropic-messages\n  model: m\n  response: { reply: "content.0.text" }\n' });
    expect(decoded.suite!.config.agent.mapping).toMatchObject({ reply: 'content.0.text', toolCalls: null });
    expect(decoded.suite!.config.agent.mapping.decode).toBeUndefined();
    const chat = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  preset: openai-chat\n  model: m\n  response: { reply: "choices.0.message.refusal" }\n' });
    expect(chat.suite!.config.agent.mapping).toMatchObject({ reply: 'choices.0.message.refusal', toolCalls: 'choices.0.message.tool_calls', absentToolCallsAreNone: true });
    // A reply path of one's own reads no refusal beside it.
    expect(chat.suite!.config.agent.mapping.refusal).toBeUndefined();
  });

  it('accepts start: false, and start with its own body and response', async () => {
    const off = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent: { start: false }\n' });
    expect(off.suite!.config.agent.start).toBeNull();

    const custom = await load({
      [F + '/ok.yml']: OK_FIXTURE,
      [C]: `agent:
  preset: openai-chat
  model: m
  start:
    body: { model: "{{model}}", messages: [ { role: system, content: start } ] }
    response: { reply: "choices.0.message.content", ended: "done" }
`,
    });
    expect(custom.errors).toEqual([]);
    expect(custom.suite!.config.agent.start).toEqual({
      body: { model: '{{model}}', messages: [{ role: 'system', content: 'start' }] },
      reply: 'choices.0.message.content',
      conversation: null,
      stage: null,
      ended: 'done',
      offTrack: null,
      toolCalls: 'choices.0.message.tool_calls',
      outcome: null,
      errors: null,
      absentToolCallsAreNone: true,
      // The preset's reply path, so its refusal beside it is read too.
      refusal: 'choices.0.message.refusal',
      // Where the file sets the welcome's own reply path, for the warning of a welcome with nothing there.
      replyAt: { path: 'choices.0.message.content', at: '.agent-replay/config.yml:6', key: 'agent.start.response.reply' },
      ownReply: true,
    });
  });

  it('reads every documented key', async () => {
    const r = await load(
      {
        [F + '/ok.yml']: OK_FIXTURE,
        [C]: `agent:
  url: https://a.example/chat
  model: m1
  headers: { X-Api-Key: "\${KEY}", X-Count: 3 }
  timeoutMs: 1000
  concurrency: 2
  retries: 0
  backoffMs: 10
judge:
  provider: anthropic
  model: claude-x
  apiKey: \${KEY}
  timeoutMs: 2000
  retries: 1
  backoffMs: 5
  concurrency: 3
  label: "my judge"
regex: { timeoutMs: 50, workers: 3 }
cost: { agentTurnUsd: 0, turnsPerFixture: 1, judgeCallUsd: 0.5, capUsd: 2 }
`,
      },
      { env: { KEY: 'the-key-value' } },
    );
    expect(r.errors).toEqual([]);
    const c = r.suite!.config;
    expect(c.agent).toMatchObject({ url: 'https://a.example/chat', model: 'm1', timeoutMs: 1000, concurrency: 2, retries: 0, backoffMs: 10 });
    expect(c.agent.headers).toEqual({ 'X-Api-Key': 'the-key-value', 'X-Count': '3' });
    expect(c.judge).toEqual({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com/v1',
      model: 'claude-x',
      apiKey: 'the-key-value',
      timeoutMs: 2000,
      retries: 1,
      backoffMs: 5,
      concurrency: 3,
      label: 'my judge',
    });
    expect(c.regex).toEqual({ timeoutMs: 50, workers: 3 });
    expect(c.cost).toEqual({ agentTurnUsd: 0, turnsPerFixture: 1, judgeCallUsd: 0.5, capUsd: 2 });
  });

  it('keeps $${NAME} literal', async () => {
    const r = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent:\n  headers: { X-Literal: "$${NOT_READ}" }\n' });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.agent.headers).toEqual({ 'X-Literal': '${NOT_READ}' });
  });
});

describe('loadSuite: overrides', () => {
  it('win over the file', async () => {
    const r = await load(
      {
        [F + '/ok.yml']: OK_FIXTURE,
        [C]: `agent: { url: https://file.example/chat, concurrency: 4, headers: { A: a, B: b } }
judge: { provider: openai, model: file-model, apiKey: file-key }
regex: { timeoutMs: 100 }
cost: { capUsd: 0.1 }
`,
      },
      {
        overrides: {
          agentUrl: 'https://flag.example/chat',
          concurrency: 9,
          agentHeaders: { B: 'flag-b' },
          judge: { model: 'flag-model', apiKey: 'flag-key-999' },
          capUsd: 5,
          regexTimeoutMs: 250,
        },
      },
    );
    expect(r.errors).toEqual([]);
    const c = r.suite!.config;
    expect(c.agent.url).toBe('https://flag.example/chat');
    expect(c.agent.concurrency).toBe(9);
    expect(c.agent.headers).toEqual({ A: 'a', B: 'flag-b' });
    expect(c.judge).toMatchObject({ provider: 'openai', model: 'flag-model', apiKey: 'flag-key-999' });
    expect(c.cost.capUsd).toBe(5);
    expect(c.regex.timeoutMs).toBe(250);
    expect(c.secrets).toEqual(expect.arrayContaining(['flag-b', 'flag-key-999']));
  });

  it('can give the url alone, ignore empty strings, and create a judge', async () => {
    const r = await load(
      { [F + '/ok.yml']: OK_FIXTURE },
      { overrides: { agentUrl: 'http://localhost:3000/chat', judge: { apiKey: 'k-1234', baseUrl: '' } } },
    );
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.agent.url).toBe('http://localhost:3000/chat');
    expect(r.suite!.config.judge).toMatchObject({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: 'k-1234' });

    const empty = await load({ [F + '/ok.yml']: OK_FIXTURE, [C]: 'agent: { url: https://file.example }\n' }, { overrides: { agentUrl: '' } });
    expect(empty.suite!.config.agent.url).toBe('https://file.example');
  });

  it('--agent-url or --judge-url without its scheme: the fix gives the address with it (the one the message names), not an example of another', async () => {
    const r = await load({ [F + '/ok.yml']: OK_FIXTURE }, { overrides: { agentUrl: '127.0.0.1:18401/api/chat', judge: { baseUrl: 'api.openai.com/v1' } } });
    expect(r.errors.map(formatIssue)).toEqual([
      'command-line options: agent URL "127.0.0.1:18401/api/chat" has no scheme (http:// or https://): write http://127.0.0.1:18401/api/chat\n  fix: give the full address of the agent, with its scheme: http://127.0.0.1:18401/api/chat',
      'command-line options: judge base URL "api.openai.com/v1" has no scheme (http:// or https://): write https://api.openai.com/v1\n  fix: give the API base address, with its scheme: https://api.openai.com/v1',
    ]);
  });

  it('are checked, and reported against their source', async () => {
    const r = await load({ [F + '/ok.yml']: OK_FIXTURE }, { overrides: { concurrency: 0, agentUrl: 'ftp://x', capUsd: -1 } });
    expect(r.suite).toBeNull();
    expect(r.errors.map(formatIssue)).toEqual([
      'command-line options: agent URL "ftp://x" uses ftp, not http or https\n  fix: give the full address of the agent, e.g. https://preview.example.com/api/chat',
      'command-line options: concurrency must be a whole number of at least 1, got 0\n  fix: pass concurrency 1 or more',
      'command-line options: cost cap (USD) must be a number of USD of at least 0, got -1\n  fix: pass cost cap (USD) 0 or more',
    ]);
  });
});
