// `agent-replay run` end to end, in process: real loopback agents, real regex workers, real files.

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DRIFT_VERDICTS } from '../../src/types.js';
import { agentConfig, baseline, byLabel, cli, makeProject, readResults, scriptedAgent, serve, useCleanup } from './helpers.js';
import { heldTimeout } from '../support/held-timeout.js';

useCleanup();

const RECORD_TOP_LEVEL = ['schemaVersion', 'tool', 'startedAt', 'finishedAt', 'durationMs', 'commit', 'estimate', 'tallies', 'fixtures'];
const RECORD_FIXTURE = [
  'label',
  'file',
  'message',
  'persona',
  'assertion',
  'errored',
  'error',
  'reply',
  'route',
  'verdict',
  'detail',
  'score',
  'threshold',
  'rationale',
  'drift',
  'baseline',
];


/** What a run with `--markdown report.md --junit junit.xml` wrote and printed, by name (for the secrets tests). */
async function writtenAndPrinted(cwd: string, r: { stdout: string; stderr: string }): Promise<Record<string, string>> {
  return {
    results: await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8'),
    markdown: await readFile(join(cwd, 'report.md'), 'utf8'),
    junit: await readFile(join(cwd, 'junit.xml'), 'utf8'),
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

describe('run', () => {
  it('replays a suite, writes a valid results.json, markdown and junit, and prints a summary', async () => {
    const agent = await serve(scriptedAgent({ 'Can I get my money back?': 'Yes, within 30 days.' }));
    const judge = await serve((req) => {
      const body = req.json as { messages?: unknown[] };
      const ok = Array.isArray(body?.messages);
      return { json: { choices: [{ message: { role: 'assistant', content: ok ? '{"score": 0.9, "rationale": "Polite and clear."}' : 'no' } }] } };
    });
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}judge:\n  provider: openai\n  baseUrl: ${judge.url.replace(/\/chat$/, '')}\n  model: test-judge\n  apiKey: judge-key-123\n`,
      fixtures: {
        'refund.yml': 'label: refund-policy\nmessage: Can I get my money back?\npersona: returning-customer\nassert: { regex: "30 days", flags: "i" }\n',
        'list.yml':
          'fixtures:\n  - { label: greeting, message: hello, assert: { contains: "echo: hello" } }\n  - { label: opening-hours, message: When are you open? }\n  - { label: polite, message: Be nice, assert: { judge: "The reply is polite.", threshold: 0.7 } }\n',
      },
    });

    const r = await cli(['run', '--out', 'out/results.json', '--markdown', 'out/report.md', '--junit', 'out/junit.xml', '--commit', 'b'.repeat(40)], cwd);
    expect(r.stderr).not.toMatch(/error/i);
    expect(r.code).toBe(0);

    const record = await readResults(join(cwd, 'out/results.json'));
    for (const key of RECORD_TOP_LEVEL) expect(record).toHaveProperty(key);
    expect(record.schemaVersion).toBe(1);
    expect(record.tool.name).toBe('agent-replay');
    expect(record.commit).toBe('b'.repeat(40));
    expect(Object.keys(record.estimate).sort()).toEqual(['aboveCap', 'capUsd', 'confirmed', 'usd']);
    expect(record.estimate).toEqual({ usd: 0.085, capUsd: 0.1, aboveCap: false, confirmed: false });
    expect(record.tallies).toEqual({ passed: 4, failed: 0, notEvaluated: 0, errored: 0 });
    expect(record.agent.host).toBe(new URL(agent.url).host);
    expect(record.judge.name).toBe('openai test-judge');
    expect(record.fixtures.map((f) => f.label)).toEqual(['greeting', 'opening-hours', 'polite', 'refund-policy']);
    for (const f of record.fixtures) for (const key of RECORD_FIXTURE) expect(f).toHaveProperty(key);

    const f = byLabel(record);
    const refund = f.get('refund-policy');
    expect(refund).toMatchObject({
      file: '.agent-replay/fixtures/refund.yml',
      message: 'Can I get my money back?',
      persona: 'returning-customer',
      assertion: { kind: 'regex', pattern: '30 days', flags: 'i' },
      errored: false,
      error: null,
      reply: 'Yes, within 30 days.',
      route: { conversation: 'c', stage: 'Can I get my money back?' },
      verdict: 'pass',
      drift: { reply: null, route: null, verdict: 'no_baseline' },
      baseline: null,
    });
    expect(refund?.detail).toContain('30 days');
    expect(f.get('opening-hours')).toMatchObject({ assertion: null, persona: null, verdict: 'pass' });
    expect(f.get('polite')).toMatchObject({ verdict: 'pass', score: 0.9, threshold: 0.7, rationale: 'Polite and clear.' });
    // The judge was really called once, with the key, and the key is never written.
    expect(judge.requests).toHaveLength(1);
    expect(judge.requests[0]?.headers.authorization).toBe('Bearer judge-key-123');

    const markdown = await readFile(join(cwd, 'out/report.md'), 'utf8');
    expect(markdown).toContain('refund-policy');
    const junit = await readFile(join(cwd, 'out/junit.xml'), 'utf8');
    expect(junit).toMatch(/^<\?xml/);
    expect(junit).toContain('refund-policy');
    expect(r.stdout).toMatch(/passed 4/);
    expect(r.stdout).toContain(join(cwd, 'out/results.json'));
    for (const text of [await readFile(join(cwd, 'out/results.json'), 'utf8'), markdown, junit, r.stdout, r.stderr]) {
      expect(text).not.toContain('judge-key-123');
    }
    // Two turns per fixture: welcome + message, one session each.
    expect(agent.requests).toHaveLength(8);
  });

  it('shows every verdict and every drift value, with errored and no-baseline fixtures shaped as docs/semantics.md (Drift) says', async () => {
    const agent = await serve(
      scriptedAgent({
        a: 'A-reply',
        b: 'B-reply',
        c: 'C-reply now',
        d: 'D-new',
        e: 'E-reply',
        f: 'F-reply',
        boom: { status: 500 },
      }),
    );
    const fixtures = [
      '  - { label: new-pass, message: n, assert: { contains: echo } }',
      '  - { label: still-pass, message: a, assert: { contains: A-reply } }',
      '  - { label: still-fail, message: b, assert: { contains: nope } }',
      '  - { label: newly-pass, message: c, assert: { contains: C-reply } }',
      '  - { label: newly-fail, message: d, assert: { contains: D-old } }',
      '  - { label: not-eval, message: e, assert: { regex: "(" } }',
      '  - { label: not-eval-new, message: f, assert: { regex: "(" } }',
      '  - { label: probe, message: g }',
      '  - { label: broken, message: boom, assert: { contains: x } }',
    ];
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 10 }\n`,
      fixtures: { 'all.yml': `fixtures:\n${fixtures.join('\n')}\n` },
      baselines: [
        baseline('still-pass', 'A-reply', { conversation: 'c', stage: 'a' }, 'pass'),
        baseline('still-fail', 'B-reply', { conversation: 'c', stage: 'b' }, 'fail'),
        baseline('newly-pass', 'C-reply then', { conversation: 'old', stage: 'c' }, 'fail'),
        baseline('newly-fail', 'D-old', { conversation: 'c', stage: 'd' }, 'pass'),
        baseline('not-eval', 'E-reply', { conversation: 'c', stage: 'e' }, 'pass'),
        baseline('broken', 'it used to work', { conversation: 'c', stage: 'boom' }, 'pass'),
      ],
    });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('gate failed: 1 fixture newly failing (newly-fail)');

    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    const f = byLabel(record);
    const row = (label: string) => {
      const x = f.get(label);
      return [x?.verdict, x?.drift?.verdict ?? null, x?.drift?.reply ?? null, x?.drift?.route ?? null];
    };
    expect(row('new-pass')).toEqual(['pass', 'no_baseline', null, null]);
    expect(row('still-pass')).toEqual(['pass', 'still_passing', 'same', 'same']);
    expect(row('still-fail')).toEqual(['fail', 'still_failing', 'same', 'same']);
    expect(row('newly-pass')).toEqual(['pass', 'newly_passing', 'different', 'different']);
    expect(row('newly-fail')).toEqual(['fail', 'newly_failing', 'different', 'same']);
    // Not evaluated with a baseline: the turn still ran, reply and route are compared.
    expect(row('not-eval')).toEqual(['not_evaluated', 'not_evaluated', 'same', 'same']);
    expect(f.get('not-eval')?.detail).toMatch(/does not compile/);
    // Not evaluated without a baseline: no_baseline wins, nothing to compare.
    expect(row('not-eval-new')).toEqual(['not_evaluated', 'no_baseline', null, null]);
    expect(f.get('not-eval-new')?.reply).toBe('F-reply');
    expect(f.get('probe')).toMatchObject({ verdict: 'pass', assertion: null });
    expect(f.get('broken')).toMatchObject({ errored: true, verdict: null, drift: null, reply: null, route: null, errorKind: 'http' });
    expect(f.get('broken')?.baseline?.reply).toBe('it used to work');

    const seen = new Set(record.fixtures.map((x) => x.drift?.verdict).filter((v) => v !== undefined));
    expect([...seen].sort()).toEqual([...DRIFT_VERDICTS].sort());
    expect(new Set(record.fixtures.map((x) => x.verdict))).toEqual(new Set(['pass', 'fail', 'not_evaluated', null]));
    expect(record.tallies).toEqual({ passed: 4, failed: 2, notEvaluated: 2, errored: 1 });
    // A replay never writes a baseline by itself.
    const stored = await readFile(join(cwd, '.agent-replay/baselines/newly-fail.json'), 'utf8');
    expect(JSON.parse(stored).reply).toBe('D-old');
  });

  it('one fixture whose agent call fails never hides the others', async () => {
    const agent = await serve(scriptedAgent({ two: { status: 500 } }));
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: {
        'f.yml': 'fixtures:\n  - { label: one, message: one }\n  - { label: two, message: two }\n  - { label: three, message: three, assert: { contains: three } }\n  - { label: four, message: four, assert: { contains: nope } }\n',
      },
    });
    const r = await cli(['run', '--concurrency', '1'], cwd);
    // The default gate (newly_failing, unverified): an errored item leaves the run not verified.
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gate failed: not verified: 1 errored \(HTTP 500 from http:\/\/127\.0\.0\.1:\d+\/\S* the agent failed: see its logs\)/);
    // The lenient gate: errored and failed (not newly failing) do not gate.
    expect((await cli(['run', '--concurrency', '1', '--fail-on', 'newly_failing'], cwd)).code).toBe(0);
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    expect(record.fixtures.map((x) => [x.label, x.errored ? 'errored' : x.verdict])).toEqual([
      ['one', 'pass'],
      ['two', 'errored'],
      ['three', 'pass'],
      ['four', 'fail'],
    ]);
    expect(byLabel(record).get('two')?.error).toMatch(/HTTP 500/);
  });

  it('reports each way the agent can fail as errored, with its kind and a message that says which', async () => {
    // The deadline of the turn never answered is fired once the agent holds it, not a real timer that
    // a loaded machine could let pass before the connection opened (the error then says no connection
    // opened); every other turn's deadline (90 s, past the test's limit) is never reached. One turn in
    // flight at a time: the fire cuts that one alone.
    const held = heldTimeout();
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) {
        return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' }, ended: body.persona === 'blocked' } };
      }
      switch (body.message) {
        case 'http':
          return { status: 502, body: 'bad gateway' };
        case 'slow':
          held.fire();
          return 'hang';
        case 'garbled':
          return { body: '{"reply": "unterminated' };
        case 'silent':
          return { json: { route: { conversation: 'c', stage: 's' }, ended: false } };
        default:
          return { json: { reply: 'fine', route: { conversation: 'c', stage: 'ok' } } };
      }
    });
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 1\n  backoffMs: 0\n  timeoutMs: 90000\n  concurrency: 1\ncost: { capUsd: 1 }\n`,
      fixtures: {
        'f.yml': [
          'fixtures:',
          '  - { label: ok, message: hi }',
          '  - { label: http-error, message: http }',
          '  - { label: timeout, message: slow }',
          '  - { label: invalid-json, message: garbled }',
          '  - { label: ended, message: hi, persona: blocked }',
          '  - { label: missing-reply, message: silent }',
          '',
        ].join('\n'),
      },
    });
    const r = await cli(['run', '--fail-on', 'errored'], cwd, {}, { engine: { agentTimer: held.timer } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gate failed: 5 fixtures errored/);
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('ok')).toMatchObject({ errored: false, verdict: 'pass' });
    const expected: Record<string, [string, RegExp]> = {
      'http-error': ['http', /message turn: agent returned HTTP 502 after 2 attempts: bad gateway/],
      timeout: ['timeout', /message turn: no answer from the agent within 90,000 ms/],
      'invalid-json': ['invalid_json', /message turn: response is not valid JSON/],
      ended: ['ended_in_welcome', /ended during the welcome turn/],
      'missing-reply': ['missing_reply', /message turn: response has no string at "reply"/],
    };
    for (const [label, [kind, message]] of Object.entries(expected)) {
      const x = f.get(label);
      expect(x, label).toMatchObject({ errored: true, errorKind: kind, verdict: null, drift: null, reply: null });
      expect(x?.error, label).toMatch(message);
      expect(x?.detail, label).toBe(x?.error);
    }
    // Retried once on 502; not retried on a timeout, invalid JSON or a missing reply.
    const messages = agent.requests.map((q) => (q.json as { message?: string }).message).filter(Boolean);
    expect(messages.filter((m) => m === 'http')).toHaveLength(2);
    expect(messages.filter((m) => m === 'slow')).toHaveLength(1);
    expect(messages.filter((m) => m === 'garbled')).toHaveLength(1);
    // Every request had its deadline, agent.timeoutMs, started.
    expect(held.started).toEqual(agent.requests.map(() => 90_000));
  });

  it('reports an agent that cannot be reached as errored (network), for every fixture, and still writes the record', async () => {
    const gone = await serve();
    await gone.close();
    const cwd = await makeProject({
      config: agentConfig(gone.url),
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: a }\n  - { label: b, message: b }\n' },
    });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`gate failed: not verified: 2 errored (all 2: connection refused at ${gone.url}: `);
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    expect(record.tallies).toEqual({ passed: 0, failed: 0, notEvaluated: 0, errored: 2 });
    for (const f of record.fixtures) {
      expect(f).toMatchObject({ errored: true, errorKind: 'network', verdict: null, drift: null });
      expect(f.error).toMatch(/^welcome turn: could not reach the agent after 1 attempt/);
    }
    expect(r.stdout).toMatch(/errored 2/);
  });

  it('never writes or prints a secret from the environment, even when the agent echoes it', async () => {
    const secret = 's3cr3t-value';
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      const auth = String(req.headers.authorization);
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' } } };
      if (body.message === 'fail') return { status: 500, body: `denied for ${auth}` };
      // The error snippet is clipped at 200 characters, right inside the secret.
      if (body.message === 'clipped') return { status: 500, body: `${'x'.repeat(185)} ${auth} and more` };
      if (body.message === 'route') return { json: { reply: 'ok', route: { conversation: auth, stage: auth } } };
      return { json: { reply: `your header was ${auth}`, route: { conversation: 'c', stage: 's' } } };
    });
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 0\n  headers: { Authorization: "Bearer \${AGENT_TOKEN}" }\n`,
      fixtures: {
        'f.yml': [
          'fixtures:',
          '  - { label: echo, message: hi, assert: { regex: "Bearer .*" } }',
          '  - { label: echo-fail, message: hi, assert: { contains: "not there" } }',
          '  - { label: error, message: fail }',
          '  - { label: route, message: route }',
          '  - { label: clipped, message: clipped }',
          '',
        ].join('\n'),
      },
      baselines: [baseline('route', 'ok', { conversation: 'x', stage: 'y' }, 'pass')],
    });
    const r = await cli(['run', '--markdown', 'report.md', '--junit', 'junit.xml', '--fail-on', 'none'], cwd, { AGENT_TOKEN: secret });
    expect(r.code).toBe(0);
    // The secret reached the agent (so the echo is real) ...
    expect(agent.requests.some((q) => q.headers.authorization === `Bearer ${secret}`)).toBe(true);
    // ... and is nowhere in what the run wrote or printed.
    const outputs = await writtenAndPrinted(cwd, r);
    for (const [name, text] of Object.entries(outputs)) expect(text, name).not.toContain(secret);
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('echo')?.reply).toBe('your header was Bearer ***');
    expect(f.get('echo')?.verdict).toBe('pass');
    expect(f.get('error')?.error).toContain('denied for Bearer ***');
    expect(f.get('route')?.route).toEqual({ conversation: 'Bearer ***', stage: 'Bearer ***' });
    expect(f.get('clipped')?.error).toMatch(/Bearer \*\*\*\u2026$/);
    for (const [name, text] of Object.entries(outputs)) expect(text, name).not.toContain(secret.slice(0, 6));
  });

  it('never writes or prints the password of a URL with credentials, sent as basic auth, even when the agent echoes it', async () => {
    const password = 'pr3view-pa55';
    const basic = Buffer.from(`preview:${password}`).toString('base64');
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      const auth = String(req.headers.authorization);
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' } } };
      if (body.message === 'decoded') return { json: { reply: `you are ${Buffer.from(auth.replace('Basic ', ''), 'base64').toString()}`, route: { conversation: 'c', stage: 's' } } };
      if (body.message === 'fail') return { status: 500, body: `denied for ${auth}` };
      return { json: { reply: `your header was ${auth}`, route: { conversation: 'c', stage: 's' } } };
    });
    const withCredentials = agent.url.replace('http://', `http://preview:${password}@`);
    const cwd = await makeProject({
      config: `agent:\n  url: ${withCredentials}\n  retries: 0\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: echo, message: hi }\n  - { label: decoded, message: decoded }\n  - { label: error, message: fail }\n' },
    });
    const r = await cli(['run', '--markdown', 'report.md', '--junit', 'junit.xml', '--fail-on', 'none'], cwd);
    expect(r.code).toBe(0);
    // The credentials reached the agent as basic auth (so the echo is real) ...
    expect(agent.requests.some((q) => q.headers.authorization === `Basic ${basic}`)).toBe(true);
    // ... and neither the password nor its basic auth form is in what the run wrote or printed.
    const outputs = await writtenAndPrinted(cwd, r);
    for (const [name, text] of Object.entries(outputs)) {
      expect(text, name).not.toContain(password);
      expect(text, name).not.toContain(basic);
    }
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('echo')?.reply).toBe('your header was Basic ***');
    expect(f.get('decoded')?.reply).toBe('you are preview:***');
    expect(f.get('error')?.error).toContain('denied for Basic ***');
  });

  it('never prints a secret that an agent echoes in a Content-Encoding it cannot decode', async () => {
    const secret = 'S3cr3t-Mixed-Case';
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' } } };
      return { headers: { 'content-encoding': `x-${String(req.headers.authorization).replace('Bearer ', '')}` }, body: 'x' };
    });
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 0\n  headers: { Authorization: "Bearer \${AGENT_TOKEN}" }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: one, message: hi }\n' },
    });
    const r = await cli(['run', '--junit', 'junit.xml', '--fail-on', 'none'], cwd, { AGENT_TOKEN: secret });
    const results = await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8');
    expect(byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json'))).get('one')?.error).toContain('encoded as "x-***"');
    for (const [name, text] of Object.entries({ results, junit: await readFile(join(cwd, 'junit.xml'), 'utf8'), stdout: r.stdout, stderr: r.stderr })) {
      expect(text.toLowerCase(), name).not.toContain(secret.toLowerCase());
    }
  });

  it('never writes or prints the token of an Authorization header written in config.yml, echoed without its scheme', async () => {
    const token = 'sk-lit-ABCDEF123456';
    const agent = await serve((req) => {
      const body = (req.json ?? {}) as Record<string, unknown>;
      const tok = String(req.headers.authorization).replace(/^Bearer /, '');
      if (body.start === true) return { json: { reply: 'Welcome!', route: { conversation: 'w', stage: 'g' } } };
      if (body.message === 'fail') return { status: 401, body: `invalid token ${tok}` };
      return { json: { reply: `your token is ${tok}`, route: { conversation: 'c', stage: 's' } } };
    });
    const cwd = await makeProject({
      config: `agent:\n  url: ${agent.url}\n  retries: 0\n  headers: { Authorization: "Bearer ${token}" }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: echo, message: hi }\n  - { label: error, message: fail }\n' },
    });
    const r = await cli(['run', '--junit', 'junit.xml', '--fail-on', 'none'], cwd);
    expect(agent.requests.some((q) => q.headers.authorization === `Bearer ${token}`)).toBe(true);
    const results = await readFile(join(cwd, '.agent-replay', 'results', 'results.json'), 'utf8');
    for (const [name, text] of Object.entries({ results, junit: await readFile(join(cwd, 'junit.xml'), 'utf8'), stdout: r.stdout, stderr: r.stderr })) {
      expect(text, name).not.toContain(token);
    }
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('echo')?.reply).toBe('your token is ***');
    expect(f.get('error')?.error).toContain('invalid token ***');
  });

  it('never prints the password of an agent URL that is not valid, quoted in its error (file, flag, validate, probe)', async () => {
    const password = 'pr3view-pa55';
    const basic = Buffer.from(`preview:${password}`).toString('base64');
    // Port 99999 and a space in the host: addresses that do not parse, so their errors quote them as written.
    const bad = [`http://preview:${password}@127.0.0.1:99999/chat`, `https://preview:${password}@pre view.example.com/chat`, `http://${password}@127.0.0.1:99999/chat`];
    const fixtures = { 'f.yml': 'fixtures:\n  - { label: one, message: hi }\n' };
    for (const url of bad) {
      const inFile = await makeProject({ config: `agent:\n  url: ${url}\n`, fixtures });
      const flag = await makeProject({ config: 'agent:\n  url: http://127.0.0.1:9/chat\n', fixtures });
      const runs = [
        ['file, run', await cli(['run'], inFile)],
        ['file, validate', await cli(['validate'], inFile)],
        ['file, probe', await cli(['probe', 'hi'], inFile)],
        ['flag, run', await cli(['run', '--agent-url', url], flag)],
        ['flag, probe', await cli(['probe', 'hi', '--agent-url', url], flag)],
      ] as const;
      for (const [name, r] of runs) {
        expect(r.code, `${name}: ${url}`).toBe(2);
        expect(r.stdout + r.stderr, `${name}: ${url}`).toContain('is not a valid URL');
        expect(r.stdout + r.stderr, `${name}: ${url}`).toContain('***@');
        for (const text of [r.stdout, r.stderr]) {
          expect(text, `${name}: ${url}`).not.toContain(password);
          expect(text, `${name}: ${url}`).not.toContain(basic);
        }
      }
    }
  });
});

describe('run: exit status', () => {
  async function newlyFailingProject(): Promise<string> {
    const agent = await serve(scriptedAgent({ q: 'changed' }));
    return makeProject({
      config: agentConfig(agent.url),
      fixtures: { 'f.yml': 'label: regressed\nmessage: q\nassert: { contains: original }\n' },
      baselines: [baseline('regressed', 'original', { conversation: 'c', stage: 'q' }, 'pass')],
    });
  }

  it('is 1 when fail-on is met (default newly_failing) and 0 with --fail-on none', async () => {
    const cwd = await newlyFailingProject();
    const failed = await cli(['run'], cwd);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('newly failing (regressed)');
    const passed = await cli(['run', '--fail-on', 'none'], cwd);
    expect(passed.code).toBe(0);
    expect(passed.stderr).not.toContain('gate failed');
  });

  it('is 1 for any listed condition, e.g. --fail-on failed,errored', async () => {
    const agent = await serve(scriptedAgent({}));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: x\nmessage: q\nassert: { contains: nope }\n' } });
    expect((await cli(['run'], cwd)).code).toBe(0);
    const r = await cli(['run', '--fail-on', 'failed,errored'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 fixture failing (x)');
  });

  it('is 2 for usage errors, naming what was wrong, and nothing is sent', async () => {
    const agent = await serve();
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });

    const unknownFlag = await cli(['run', '--frobnicate'], cwd);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toContain('frobnicate');
    expect(unknownFlag.stderr).not.toContain('Usage:'); // one line and where the help is, never the whole help

    const wrongCommandFlag = await cli(['validate', '--agent-url', agent.url], cwd);
    expect(wrongCommandFlag.code).toBe(2);
    expect(wrongCommandFlag.stderr).toContain('--agent-url is not an option of "validate" (it is one of "run", "probe")');

    const unknownCommand = await cli(['frob'], cwd);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain('unknown command "frob"');

    const badFailOn = await cli(['run', '--fail-on', 'newly_failing,sometimes'], cwd);
    expect(badFailOn.code).toBe(2);
    expect(badFailOn.stderr).toContain('"sometimes" is not a known condition');
    expect(badFailOn.stderr).toContain('newly_failing');

    const badConcurrency = await cli(['run', '--concurrency', 'many'], cwd);
    expect(badConcurrency.code).toBe(2);
    expect(badConcurrency.stderr).toContain('--concurrency');

    const noCommand = await cli([], cwd);
    expect(noCommand.code).toBe(2);
    expect(noCommand.stdout).toBe('');
    expect(noCommand.stderr).toContain('Usage: agent-replay <command> [options]');

    expect(agent.requests).toHaveLength(0);
    expect(existsSync(join(cwd, '.agent-replay', 'results', 'results.json'))).toBe(false);
  });

  it('is 0 for --help and --version', async () => {
    const cwd = await makeProject({});
    const help = await cli(['--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}run {2,}replay the suite/m);
    const version = await cli(['--version'], cwd);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('is 2 for configuration errors, each named with its file and line, and nothing is sent', async () => {
    const agent = await serve();
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}  colour: blue\n`,
      fixtures: {
        'a.yml': 'label: ok\nmessage: hello\n',
        'b.yml': 'label: bad\nmessage: hello\nassert: { judge: "polite", threshold: 1.5 }\n',
        'c.yml': 'fixtures:\n  - { label: ok, message: again }\n',
      },
    });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.agent-replay\/config\.yml:5(:\d+)?: unknown key "colour"/);
    expect(r.stderr).toMatch(/\.agent-replay\/fixtures\/b\.yml:3(:\d+)?: .*threshold 1\.5 is outside \[0, 1\]/);
    expect(r.stderr).toMatch(/\.agent-replay\/fixtures\/c\.yml:2(:\d+)?: duplicate label "ok"/);
    expect(r.stderr).toContain('3 configuration errors; nothing was sent to the agent.');
    expect(agent.requests).toHaveLength(0);
  });

  it('is 2 when no agent URL is configured, saying how to give one', async () => {
    const cwd = await makeProject({ fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no agent URL is configured');
    // Each way named with where it applies: the CLI's flag, the Action's input.
    expect(r.stderr).toContain("set agent.url in config.yml, pass --agent-url URL to the CLI, or set the Action's agent-url input");
    expect(existsSync(join(cwd, '.agent-replay', 'results', 'results.json'))).toBe(false);
  });

  it('with the url line init writes still commented out, names that line and says to uncomment it', async () => {
    const config = 'agent:\n  # The agent\'s endpoint.\n  # url: http://localhost:3000/api/chat\n  preset: native\n# judge:\n#   url: http://judge\n';
    const cwd = await makeProject({ config, fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '.agent-replay/config.yml:3:3: no agent URL is configured: the url line under agent: is commented out (# url: http://localhost:3000/api/chat)\n' +
        "  fix: uncomment line 3 and set it to your agent's address (url: http://...), pass --agent-url URL to the CLI, or set the Action's agent-url input",
    );
    // A commented url: under another key is not the agent's.
    const other = await makeProject({ config: 'agent:\n  preset: native\njudge:\n  # url: http://judge\n', fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    expect((await cli(['run'], other)).stderr).toContain("error: .agent-replay/config.yml: no agent URL is configured\n  fix: set agent.url in config.yml, pass --agent-url URL");
  });

  it('is 2 for a --dir that is not a suite folder, and creates no folder there (a mistyped --dir, a file)', async () => {
    const agent = await serve();
    const cwd = await makeProject({ fixtures: { 'f.yml': 'label: x\nmessage: q\n' } });
    await writeFile(join(cwd, 'notes.txt'), 'not a folder\n');
    const typo = await cli(['run', '--dir', '.agent-replya', '--agent-url', agent.url], cwd);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('.agent-replya/fixtures: no fixtures folder');
    expect(existsSync(join(cwd, '.agent-replya'))).toBe(false);
    const file = await cli(['run', '--dir', 'notes.txt', '--agent-url', agent.url], cwd);
    expect(file.code).toBe(2);
    // Said as a file, not as a fixtures folder under it (docs/cli.md, "What each command does").
    expect(file.stderr).toContain('notes.txt: a file, not a folder: --dir (the dir input in the Action) takes the suite folder');
    expect(file.stderr).not.toContain('ENOTDIR');
    expect(agent.requests).toHaveLength(0);
  });

  it('takes the agent URL from --agent-url', async () => {
    const agent = await serve();
    const cwd = await makeProject({ fixtures: { 'f.yml': 'label: x\nmessage: q\nassert: { contains: "echo: q" }\n' } });
    const r = await cli(['run', '--agent-url', agent.url], cwd);
    expect(r.code).toBe(0);
    expect(agent.requests.length).toBeGreaterThan(0);
    expect((await readResults(join(cwd, '.agent-replay', 'results', 'results.json'))).tallies.passed).toBe(1);
  });
});

describe('run: cost cap', () => {
  async function expensive(): Promise<{ cwd: string; requests: () => number }> {
    const agent = await serve();
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}cost: { capUsd: 0.01 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: a }\n  - { label: b, message: b }\n' },
    });
    return { cwd, requests: () => agent.requests.length };
  }

  it('refuses a run above the cap: exit 2, nothing reaches the agent, and it says how to confirm', async () => {
    const { cwd, requests } = await expensive();
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    expect(requests()).toBe(0);
    expect(r.stderr).toContain('the estimated cost $0.04 for 4 agent turns (2 fixtures) is above the cost cap $0.01');
    expect(r.stderr).toContain('rerun with --confirm-cost');
    expect(r.stderr).toContain('.agent-replay/config.yml');
    expect(r.stderr).not.toContain('<!--'); // the terminal gets text, not the PR comment's markdown
    expect(existsSync(join(cwd, '.agent-replay', 'results', 'results.json'))).toBe(false);
  });

  it('writes the refusal to --markdown, never what an earlier run left there', async () => {
    const { cwd } = await expensive();
    await writeFile(join(cwd, 'report.md'), '## agent-replay: No new failures (an earlier run)\n');
    const r = await cli(['run', '--markdown', 'report.md'], cwd);
    expect(r.code).toBe(2);
    const markdown = await readFile(join(cwd, 'report.md'), 'utf8');
    expect(markdown).not.toContain('an earlier run');
    expect(markdown).toContain('### ⏸️ Not run: the estimated cost is above the cap');
    expect(markdown).toContain('the cap is **$0.01**');
    expect(markdown).toContain('run the CLI with `--confirm-cost`');
  });

  it('names the meaning calls its estimate prices, so the figures add up (a judge configured, fixtures with baselines)', async () => {
    const agent = await serve();
    const cwd = await makeProject({
      config: `${agentConfig(agent.url)}judge: { provider: openai, baseUrl: http://127.0.0.1:9/v1, model: m, apiKey: k }\ncost: { capUsd: 0.01 }\n`,
      fixtures: { 'f.yml': 'fixtures:\n  - { label: a, message: a, assert: { judge: "polite" } }\n  - { label: b, message: b }\n' },
      baselines: [baseline('a', 'A', null, 'pass'), baseline('b', 'B', null, 'pass')],
    });
    const r = await cli(['run'], cwd);
    expect(r.code).toBe(2);
    // 4 agent turns x $0.01 + (1 judge call + 2 meaning calls) x $0.005 (docs/meaning.md, "Costs").
    expect(r.stderr).toContain('the estimated cost $0.055 for 4 agent turns (2 fixtures), 1 judge call and 2 meaning calls at most is above the cost cap $0.01');
    expect(agent.requests).toHaveLength(0);
  });

  it('runs above the cap with --confirm-cost and records that it did', async () => {
    const { cwd, requests } = await expensive();
    const r = await cli(['run', '--confirm-cost'], cwd);
    expect(r.code).toBe(0);
    expect(requests()).toBe(4);
    const record = await readResults(join(cwd, '.agent-replay', 'results', 'results.json'));
    expect(record.estimate).toEqual({ usd: 0.04, capUsd: 0.01, aboveCap: true, confirmed: true });
  });
});
