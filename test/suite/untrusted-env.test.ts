// A config.yml from untrusted code (a fork's commit run with the workflow's secrets, docs/security.md,
// "Forks and deployment_status") reads the environment only for the keys whose destination the run
// holds: the judge's, a panel member's, the simulator's and the meaning judge's apiKey. Any other
// `${VAR}` is an error at its line, and nothing is read from the environment for it.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

const FORK = 'the head of #12, from a fork';
const ENV = { JUDGE_KEY: 'judge-key-0001', MEMBER_KEY: 'member-key-0002', SIM_KEY: 'sim-key-0003', MEANING_KEY: 'meaning-key-0004', RUNTIME: 'runtime-0005', TENANT: 'tenant-0006' };

const REFUSED = `was not read: the commit is ${FORK}, whose config.yml may read the environment only for the apiKey of a judge, panel member, simulator or meaning judge (sent only to its provider)`;

const KEYS_ONLY = [
  'judge:',
  '  provider: openai',
  '  model: m0',
  '  apiKey: "${JUDGE_KEY}"',
  '  panel:',
  '    - { model: m0 }',
  '    - { provider: anthropic, model: c1, apiKey: "${MEMBER_KEY}" }',
  '    - { model: m2 }',
  'simulator: { provider: openai, model: s, apiKey: "${SIM_KEY}" }',
  'meaning: { check: judge, provider: openai, model: e, apiKey: "${MEANING_KEY}" }',
  '',
].join('\n');

describe('${VAR} in an untrusted config.yml', () => {
  it('is read for the keys whose destination the run holds (judge, panel member, simulator, meaning judge)', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: KEYS_ONLY }, { env: ENV, untrustedSuite: FORK });
    expect(brief(r.errors)).toEqual([]);
    const config = r.suite!.config;
    expect(config.judge?.apiKey).toBe(ENV.JUDGE_KEY);
    expect(config.judge?.panel?.[1]?.apiKey).toBe(ENV.MEMBER_KEY);
    expect(config.secrets).toEqual(expect.arrayContaining([ENV.JUDGE_KEY, ENV.MEMBER_KEY, ENV.SIM_KEY, ENV.MEANING_KEY]));
  });

  it('is an error anywhere else, at its line, naming the variable and the place, reading nothing; a trusted suite reads it', async () => {
    const file = [
      'agent:',
      '  url: https://preview.example.com/chat',
      '  headers: { X-Runtime: "${RUNTIME}", X-Plain: literal }',
      '  request: { body: { message: "{{message}}", token: "${RUNTIME}" } }',
      'judge: { provider: openai, model: m0, apiKey: "${JUDGE_KEY}" }',
      'traces:',
      '  query:',
      '    kind: tempo',
      '    url: https://tempo.example.com',
      '    headers: { X-Scope-OrgID: "${TENANT}" }',
      '',
    ].join('\n');
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: file }, { env: ENV, untrustedSuite: FORK });
    expect(brief(r.errors)).toEqual([
      `${C}:3: \${RUNTIME} in agent.headers.X-Runtime ${REFUSED}`,
      `${C}:4: \${RUNTIME} in agent.request.body.token ${REFUSED}`,
      `${C}:10: \${TENANT} in traces.query.headers.X-Scope-OrgID ${REFUSED}`,
    ]);
    expect(r.errors[0]!.fix).toBe('give the value from the workflow instead (the agent-headers input for an agent header), or run the suite from a trusted commit');
    const shown = r.errors.map(formatIssue).join('\n');
    expect(shown).not.toContain(ENV.RUNTIME);
    expect(shown).not.toContain(ENV.TENANT);

    const trusted = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: file }, { env: ENV });
    expect(brief(trusted.errors)).toEqual([]);
    expect(trusted.suite!.config.agent.headers['X-Runtime']).toBe(ENV.RUNTIME);
    expect(trusted.suite!.config.traces?.query?.headers).toEqual({ 'X-Scope-OrgID': ENV.TENANT });
    // The trace store's key too (refused from a fork: test/action/events.test.ts).
    const withKey = file.replace('    headers: { X-Scope-OrgID', '    apiKey: "${TENANT}"\n    headers: { X-Scope-OrgID');
    expect(brief((await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: withKey }, { env: ENV, untrustedSuite: FORK })).errors)).toContain(`${C}:10: \${TENANT} in traces.query.apiKey ${REFUSED}`);
    expect((await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: withKey }, { env: ENV })).suite!.config.traces?.query?.apiKey).toBe(ENV.TENANT);
  });

  it('a suite whose file is config.yaml is told config.yaml, the file it has', async () => {
    const Y = '.agent-replay/config.yaml';
    const file = 'agent:\n  url: https://preview.example.com/chat\n  headers: { X-Runtime: "${RUNTIME}" }\ncost: { capUsd: 500 }\n';
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: file }, { env: ENV, untrustedSuite: FORK });
    expect(brief(r.errors)).toEqual([`${Y}:3: \${RUNTIME} in agent.headers.X-Runtime ${REFUSED.replace('whose config.yml', 'whose config.yaml')}`]);
    const held = await load({ [`${F}/a.yml`]: OK_FIXTURE, [Y]: file.replace('  headers: { X-Runtime: "${RUNTIME}" }\n', '') }, { env: ENV, untrustedSuite: FORK });
    expect(brief(held.warnings)).toEqual([`${Y}:3: cost.capUsd 500 is not applied (above the default cap): the commit is ${FORK}, whose config.yaml may make the estimate stricter, not looser; the cap is 0.1`]);
  });

  it('an escaped $${VAR} is text, not a reference, and stays allowed', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: https://preview.example.com/chat\n  headers: { X-Template: "$${NOT_READ}" }\n' }, { env: ENV, untrustedSuite: FORK });
    expect(brief(r.errors)).toEqual([]);
    expect(r.suite!.config.agent.headers['X-Template']).toBe('${NOT_READ}');
  });
});

describe('cost: in an untrusted config.yml', () => {
  it('may make the estimate stricter, not looser: a lower price, fewer turns or a higher cap is not applied, with a warning at its line', async () => {
    const file = 'cost:\n  agentTurnUsd: 0\n  judgeCallUsd: 0.0001\n  simulatorCallUsd: 0\n  turnsPerFixture: 1\n  capUsd: 500\n';
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: file }, { untrustedSuite: FORK });
    expect(brief(r.errors)).toEqual([]);
    expect(r.suite!.config.cost).toEqual({ agentTurnUsd: 0.01, judgeCallUsd: 0.005, simulatorCallUsd: 0.005, turnsPerFixture: null, capUsd: 0.1 });
    const why = `the commit is ${FORK}, whose config.yml may make the estimate stricter, not looser`;
    expect(brief(r.warnings)).toEqual([
      `${C}:2: cost.agentTurnUsd 0 is not applied (below the default price): ${why}; the estimate uses 0.01`,
      `${C}:3: cost.judgeCallUsd 0.0001 is not applied (below the default price): ${why}; the estimate uses 0.005`,
      `${C}:4: cost.simulatorCallUsd 0 is not applied (below the default price): ${why}; the estimate uses 0.005`,
      `${C}:5: cost.turnsPerFixture 1 is not applied (fewer than the 2 turns each fixture sends): ${why}; the estimate counts 2`,
      `${C}:6: cost.capUsd 500 is not applied (above the default cap): ${why}; the cap is 0.1`,
    ]);
    // The workflow's cost-cap input (an override, applied after) still sets the cap.
    const input = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: file }, { untrustedSuite: FORK, overrides: { capUsd: 3 } });
    expect(input.suite!.config.cost.capUsd).toBe(3);
    // Stricter settings stand, and a trusted suite's are applied as written.
    const strict = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'cost: { judgeCallUsd: 0.02, capUsd: 0.05, turnsPerFixture: 3 }\n' }, { untrustedSuite: FORK });
    expect(strict.warnings).toEqual([]);
    expect(strict.suite!.config.cost).toMatchObject({ judgeCallUsd: 0.02, capUsd: 0.05, turnsPerFixture: 3 });
    const trusted = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: file });
    expect(trusted.warnings).toEqual([]);
    expect(trusted.suite!.config.cost).toEqual({ agentTurnUsd: 0, judgeCallUsd: 0.0001, simulatorCallUsd: 0, turnsPerFixture: 1, capUsd: 500 });
  });
});

