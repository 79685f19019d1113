// A panel of judges (docs/judges.md, "Panels") over real clients and one loopback judge server that
// answers per model: the verdict is a strict majority of MEMBERS passing, not evaluated below a
// majority of usable scores, the score is the median of the usable ones.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfiguredJudge, createJudge, createPanelJudge, judgeEndpointOf, judgeModelOf } from '../../src/judge/index.js';
import { judgeGaveNoVerdict, judgeOutcome, panelVerdict } from '../../src/assertions/judge.js';
import { CALL_FAILED_HINT, CALL_FAILED_HINTS, causeOf, JUDGE_CUT_HINT, JUDGE_ERROR_200_HINT, JUDGE_NO_SCORE_HINT, PANEL_NO_SCORE_HINT, PANEL_NO_SCORE_HINTS } from '../../src/evaluate/causes.js';
import type { JudgeConfig } from '../../src/config.js';
import type { Judge, PanelMember } from '../../src/types.js';
import type { TestServer } from './server.js';
import { panelAnswer, startPanelJudge } from './panel-server.js';
import { hangUp, startServer } from './server.js';
import { createHttpAgentClient } from '../../src/agent/index.js';
import { defaultConfig } from '../../src/config.js';
import { judgeAcrossAttempts, judgeFlip } from '../../src/evaluate/judge-flip.js';
import { capitalized } from '../../src/words.js';
import { baselineJudgeOf } from '../../src/evaluate/acceptance.js';
import { NO_BASELINES, replay } from '../../src/replay/index.js';
import type { Fixture, FixtureRecord, PersonaRecord, PersonaScript, RunRecord } from '../../src/types.js';
import { renderComment } from '../../src/report/markdown.js';
import { renderTerminal } from '../../src/report/index.js';
import { escapeInline } from '../../src/report/escape.js';
import { mergeRecords } from '../../src/record/index.js';
import { itemsData } from '../../src/report/html/data.js';
import { DEFAULT_CONTEXT } from '../../src/report/context.js';
import { startAgentServer } from '../support/agent-server.js';
import { replayOptions } from '../support/replay-options.js';

let server: TestServer;
beforeAll(async () => {
  server = await startPanelJudge();
});
afterAll(() => server.close());

function member(model: string, extra: Partial<JudgeConfig> = {}): JudgeConfig {
  return { provider: 'openai', baseUrl: server.url, model, apiKey: 'sk-member-secret', timeoutMs: 5_000, retries: 0, backoffMs: 0, concurrency: 2, label: null, ...extra };
}

function panelOf(size: number): Judge {
  return createPanelJudge(Array.from({ length: size }, (_, k) => createJudge(member(`m${k}`))));
}

async function judged(size: number, criterion: string, threshold = 0.7) {
  const panel = panelOf(size);
  try {
    return judgeOutcome(await panel.score(criterion, 'the reply'), threshold);
  } finally {
    await panel.close();
  }
}

describe('a panel of three', () => {
  it('2 pass, 1 fail: pass, with every member in the outcome and the median score', async () => {
    const o = await judged(3, 'split PPF');
    expect(o.verdict).toBe('pass');
    expect(o.score).toBe(0.9);
    expect(o.detail).toBe('panel: 2 of 3 members pass (score >= threshold 0.70; 2 needed), median 0.90: m0: meets it');
    expect(o.members).toEqual([
      { label: 'openai m0', score: 0.9, rationale: 'm0: meets it', reason: null },
      { label: 'openai m1', score: 0.9, rationale: 'm1: meets it', reason: null },
      { label: 'openai m2', score: 0.2, rationale: 'm2: misses it', reason: null },
    ]);
  });

  it('1 pass, 2 fail: fail, the rationale a failing member gave', async () => {
    const o = await judged(3, 'split FPF');
    expect(o.verdict).toBe('fail');
    expect(o.score).toBe(0.2);
    expect(o.detail).toBe('panel: 1 of 3 members pass (score >= threshold 0.70; 2 needed), median 0.20: m0: misses it');
  });

  it('2 unusable: not evaluated, each member named with its reason', async () => {
    const o = await judged(3, 'split PUH');
    expect(o.verdict).toBe('not_evaluated');
    expect(o.score).toBeNull();
    // One of the two could not answer: the panel is unreachable, as before.
    expect(o.detail).toMatch(/^judge unreachable: panel: 2 of 3 members gave no usable score \(2 usable needed; 1 unreachable, 1 gave no usable answer\): openai m1: no usable score in output: .*; openai m2: HTTP 503: overloaded$/);
    expect(o.members?.map((m) => [m.score, m.reason === null])).toEqual([
      [0.9, true],
      [null, false],
      [null, false],
    ]);
    expect(JSON.stringify(o)).not.toContain('sk-member-secret');
  });

  it('2 members that answered without a usable score: the judge gave no usable answer, not unreachable', async () => {
    const o = await judged(3, 'split PUU');
    expect(o.verdict).toBe('not_evaluated');
    expect(o.detail).toMatch(/^judge gave no usable answer: panel: 2 of 3 members gave no usable score \(2 usable needed\): openai m1: no usable score in output: .*; openai m2: no usable score in output: /);
  });

  it('1 unusable: the 2 usable decide (1 pass 1 fail is a fail: no pass majority of 3); the median is of the usable scores', async () => {
    const o = await judged(3, 'scores 0.9,0.4,x');
    expect(o.verdict).toBe('fail');
    expect(o.score).toBeCloseTo(0.65, 10);
    const both = await judged(3, 'split PUP');
    expect(both.verdict).toBe('pass');
  });

  it('asks every member in parallel: each member is called once per criterion', async () => {
    const before = server.received.length;
    await judged(3, 'split PPP');
    const asked = server.received.slice(before).map((r) => (r.body as { model: string }).model).sort();
    expect(asked).toEqual(['m0', 'm1', 'm2']);
  });
});

describe('a panel of five', () => {
  it('3 usable, 2 of them pass: fail (a majority answered, no majority passed)', async () => {
    const o = await judged(5, 'split PPFUH');
    expect(o.verdict).toBe('fail');
    expect(o.detail).toMatch(/^panel: 2 of 5 members pass \(score >= threshold 0.70; 3 needed\), median 0.90: /);
  });

  it('3 pass of 5: pass; 2 usable: not evaluated; the median of 5 scores', async () => {
    expect((await judged(5, 'split PFPFP')).verdict).toBe('pass');
    expect((await judged(5, 'split PPUUH')).verdict).toBe('not_evaluated');
    const o = await judged(5, 'scores 0.1,0.95,0.3,0.8,0.75');
    expect(o.score).toBe(0.75);
    expect(o.verdict).toBe('pass');
    expect(o.rationale).toBe('member 1 says 0.95');
  });

  it('4 usable with the median over the threshold but only 2 passing: fail (the majority is of members)', async () => {
    const o = await judged(5, 'scores 0.9,0.9,0.6,0.1,x');
    expect(o.score).toBeCloseTo(0.75, 10);
    expect(o.verdict).toBe('fail');
  });
});

describe('the panel client', () => {
  it('names its members; a label wins over "provider model"', async () => {
    const p = createPanelJudge([createJudge(member('m0', { label: 'cheap one' })), createJudge(member('m1')), createJudge(member('m2'))]);
    expect(p.name).toBe('panel of 3: cheap one, openai m1, openai m2');
    expect((await p.score('split PPP', 'r')).members?.[0]?.label).toBe('cheap one');
    await p.close();
  });

  it('the structured-output fallback is per member: only the refusing member goes plain, and the panel says which', async () => {
    const p = createPanelJudge([createJudge(member('m0')), createJudge(member('plain')), createJudge(member('m2'))]);
    expect(p.structuredOutput?.()).toEqual({ structured: true });
    const before = server.received.length;
    const r = await p.score('split PPP', 'r');
    expect(r.ok && r.members?.map((m) => m.score)).toEqual([0.9, 0.8, 0.9]);
    expect(p.structuredOutput?.()).toEqual({ structured: false, reason: "openai plain: HTTP 400: response_format 'json_schema' is not supported" });
    await p.score('split PPP', 'r');
    const sent = server.received.slice(before).map((x) => x.body as { model: string; response_format?: unknown });
    // The refusing member: structured once, then plain; the others stay structured.
    expect(sent.filter((b) => b.model === 'plain').map((b) => b.response_format !== undefined)).toEqual([true, false, false]);
    expect(sent.filter((b) => b.model !== 'plain').every((b) => b.response_format !== undefined)).toBe(true);
    await p.close();
  });

  it('a member that throws counts as unusable; the others still decide', async () => {
    const broken: Judge = {
      name: 'broken',
      score: () => Promise.reject(new Error('boom')),
      scoreTranscript: () => Promise.reject(new Error('boom')),
      close: () => Promise.resolve(),
    };
    const p = createPanelJudge([createJudge(member('m0')), broken, createJudge(member('m2'))]);
    const o = judgeOutcome(await p.scoreTranscript('split PXP', [{ index: 1, message: 'hi', reply: 'hello', route: null, offTrack: [], durationMs: 1 } as never]), 0.7);
    expect(o.verdict).toBe('pass');
    expect(o.members?.[1]).toEqual({ label: 'broken', score: null, rationale: null, reason: 'judge call failed: boom' });
    await p.close();
  });

  it('a majority missed only by members whose request agent-replay could not make: "judge call failed: panel: ...", with that cause\'s fix; one member unreachable among them: unreachable', async () => {
    const throwing = (name: string): Judge => ({
      name,
      score: () => Promise.reject(new Error('no boundary could be drawn')),
      scoreTranscript: () => Promise.reject(new Error('no boundary could be drawn')),
      close: () => Promise.resolve(),
    });
    const ours = createPanelJudge([createJudge(member('m0')), throwing('b1'), throwing('b2')]);
    const o = judgeOutcome(await ours.score('split PPP', 'the reply'), 0.7);
    expect(o.verdict).toBe('not_evaluated');
    expect(o.detail).toBe('judge call failed: panel: 2 of 3 members gave no usable score (2 usable needed): b1: judge call failed: no boundary could be drawn; b2: judge call failed: no boundary could be drawn');
    expect(judgeGaveNoVerdict(o.detail)).toBe(true);
    // Each member its own request: "could not make the requests" (it read "the request").
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: o.detail }, null)).toMatchObject({ key: 'judge:call-failed', hint: CALL_FAILED_HINTS });
    await ours.close();
    // m1 answers HTTP 503 ("split PHx"): a setting of the judge's may be at fault, so the panel is unreachable;
    // how many members failed each way is said, and the cause gives each way's fix once (it read "unreachable" alone).
    const mixed = createPanelJudge([createJudge(member('m0')), createJudge(member('m1')), throwing('b2')]);
    const m = judgeOutcome(await mixed.score('split PHP', 'the reply'), 0.7);
    expect(m.detail).toMatch(
      /^judge unreachable: panel: 2 of 3 members gave no usable score \(2 usable needed; 1 unreachable, 1 judge call failed\): openai m1: HTTP 503: .*; b2: judge call failed: no boundary could be drawn$/,
    );
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: m.detail }, null)).toEqual({
      key: 'judge:503:panel-call-failed',
      // Each count once: the member whose call failed in its fix (it read "(panel: 1 unreachable, 1 judge call failed)", and "for the 1 judge call failed" again).
      what: 'judge unreachable: HTTP 503',
      hint: `the judge's endpoint failed: see its status or log, and run it again; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`,
      // Said by a group of items whose panels count otherwise (src/evaluate/causes.ts, causeGroups).
      apart: `the judges' endpoints failed: see their statuses or logs, and run it again; for those whose judge call failed: ${CALL_FAILED_HINTS}`,
    });
    await mixed.close();
    // m1 answers without a usable score ("split PUx"): nothing was unreachable, so the panel gave no usable answer, with both fixes.
    const unusable = createPanelJudge([createJudge(member('m0')), createJudge(member('m1')), throwing('b2')]);
    const u = judgeOutcome(await unusable.score('split PUP', 'the reply'), 0.7);
    expect(u.detail).toMatch(/^judge gave no usable answer: panel: 2 of 3 members gave no usable score \(2 usable needed; 1 gave no usable answer, 1 judge call failed\): openai m1: no usable score in output: /);
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: u.detail }, null)).toMatchObject({
      key: 'judge:no-score:panel:panel-call-failed',
      what: 'the judge answered without a usable score',
      hint: `${PANEL_NO_SCORE_HINT}; for the 1 whose judge call failed: ${CALL_FAILED_HINT}`,
    });
    await unusable.close();
  });

  it('createConfiguredJudge builds the panel of config.yml, each member from its settings', async () => {
    const judge = createConfiguredJudge({ ...member('m0'), panel: [{ model: 'm0' }, { model: 'm1', label: 'second' }, { model: 'm2' }] });
    expect(judge.name).toBe('panel of 3: openai m0, second, openai m2');
    const o = judgeOutcome(await judge.score('split FPP', 'r'), 0.7);
    expect(o.verdict).toBe('pass');
    await judge.close();
    const single = createConfiguredJudge(member('m1'));
    expect(single.name).toBe('openai m1');
    await single.close();
  });
});

describe("a panel's members refused or not found: the fix names where each member's setting comes from (docs/judges.md, \"Panels\")", () => {
  // One loopback judge: the model "own" (a member's own, in judge.panel) refused its key (HTTP 401);
  // "inherited" (judge.model, which a member without its own takes) refused too, or not found (HTTP 404); "scores" answers.
  let judgeServer: TestServer;
  let inherited = 401;
  beforeAll(async () => {
    judgeServer = await startServer([
      (res, req) => {
        const model = (req.body as { model: string }).model;
        const status = model === 'own' ? 401 : model === 'inherited' ? inherited : 200;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200 ? { choices: [{ message: { role: 'assistant', content: '{"rationale": "ok", "score": 0.9}' } }] } : { error: { message: status === 401 ? 'invalid api key' : 'no such model' } }));
      },
    ]);
  });
  afterAll(() => judgeServer.close());

  /** The run's cause of a panel from config.yml: a member with its own model, one that takes judge.model, one that scores. */
  async function causeOfPanel(): Promise<ReturnType<typeof causeOf>> {
    const judge = createConfiguredJudge({ ...member('inherited'), baseUrl: judgeServer.url, panel: [{ model: 'own' }, {}, { model: 'scores' }] });
    try {
      const detail = judgeOutcome(await judge.score('The reply is polite', 'r'), 0.7).detail;
      return causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null);
    } finally {
      await judge.close();
    }
  }

  it('both refused (HTTP 401): "the judges refused the requests", their keys and models in judge.panel, else judge.*', async () => {
    inherited = 401;
    // It read "the judge refused the request: check the judge key (...) and that it may use judge.model": the member "own" sets its model in judge.panel.
    expect(await causeOfPanel()).toMatchObject({
      what: 'judge unreachable: HTTP 401',
      hint: "the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
    });
  });

  it("one refused, one not found (HTTP 404): each said of that member, its settings in judge.panel, else judge.*", async () => {
    inherited = 404;
    expect((await causeOfPanel())?.hint).toBe(
      "the judge refused the request: check that member's apiKey (judge.panel, else judge.apiKey; the key or token its endpoint expects) and that it may use that member's model (judge.panel, else judge.model); " +
        "for the 1 not reached (HTTP 404): check that member's baseUrl (judge.panel, else judge-base-url (judge.baseUrl)) and that member's model (judge.panel, else judge.model): the path (it is the API's base URL) or the model's name is probably wrong",
    );
  });

  it("a member of another provider than the judge's refused (HTTP 401): its reason says so, and its fix names judge.panel alone, never judge.apiKey or judge.model, which it does not take", async () => {
    inherited = 401;
    // An anthropic member of an openai judge's panel (src/config.ts, panelMemberConfig): the model "own" refuses its key.
    const judge = createConfiguredJudge({ ...member('inherited'), baseUrl: judgeServer.url, panel: [{ provider: 'anthropic', baseUrl: judgeServer.url, model: 'own', apiKey: 'sk-ant', label: 'claude' }, { model: 'scores' }, { model: 'own' }] });
    try {
      const { detail } = judgeOutcome(await judge.score('The reply is polite', 'r'), 0.7);
      expect(detail).toMatch(/: claude: \(another provider\) HTTP 401\b.*; openai own: HTTP 401\b/);
      // With a member of the judge's provider beside it: the rule of both.
      expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null)?.hint).toBe(
        "the judges refused the requests: check those members' apiKeys (judge.panel, else judge.apiKey; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel, else judge.model)",
      );
    } finally {
      await judge.close();
    }
    const alone = createConfiguredJudge({ ...member('inherited'), baseUrl: judgeServer.url, panel: [{ provider: 'anthropic', baseUrl: judgeServer.url, model: 'own', apiKey: 'sk-ant', label: 'claude' }, { model: 'scores' }, { model: 'scores' }] });
    const two = createConfiguredJudge({ ...member('scores'), baseUrl: judgeServer.url, panel: [{ provider: 'anthropic', baseUrl: judgeServer.url, model: 'own', apiKey: 'sk-ant' }, { provider: 'anthropic', baseUrl: judgeServer.url, model: 'own', apiKey: 'sk-ant', label: 'b' }, {}] });
    try {
      // A majority scores: the verdict stands, and the member's reason says it is of another provider.
      const one = await alone.score('The reply is polite', 'r');
      expect(one.members?.[0]?.reason).toMatch(/^\(another provider\) HTTP 401\b/);
      const { detail } = judgeOutcome(await two.score('The reply is polite', 'r'), 0.7);
      // It read "check those members' apiKeys (judge.panel, else judge.apiKey; ...) ... (judge.panel, else judge.model)".
      expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null)?.hint).toBe(
        "the judges refused the requests: check those members' apiKeys (judge.panel; the keys or tokens their endpoints expect) and that they may use those members' models (judge.panel)",
      );
    } finally {
      await alone.close();
      await two.close();
    }
  });
});

describe("a panel member's key that no HTTP header can carry: its reason names the member's key (docs/judges.md, \"Panels\")", () => {
  /** The detail and the run's cause of a judge from config.yml, criterion "split ...". */
  async function outcome(config: JudgeConfig, criterion: string): Promise<{ detail: string; cause: ReturnType<typeof causeOf> }> {
    const judge = createConfiguredJudge(config);
    try {
      const { detail } = judgeOutcome(await judge.score(criterion, 'r'), 0.7);
      return { detail, cause: causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail }, null) };
    } finally {
      await judge.close();
    }
  }

  it("one member's: \"that member's apiKey (judge.panel, else judge.apiKey)\", not the judge key it does not read; 2: each its own; a single judge's as it was", async () => {
    // m0 sets a key with a line break in judge.panel; m1 answers HTTP 503; m2 scores.
    const one = await outcome({ ...member('m0'), panel: [{ model: 'm0', apiKey: 'sk-own\n' }, { model: 'm1' }, { model: 'm2' }] }, 'split PHP');
    // It read "openai m0: the request was not sent: the judge key (judge.apiKey) holds a line break ...".
    expect(one.detail).toContain("openai m0: the request was not sent: that member's apiKey (judge.panel, else judge.apiKey) holds a line break");
    expect(one.detail).not.toContain('the judge key');
    expect(one.cause?.hint).toContain("; for the 1 not reached (its key could not be sent): set that member's apiKey (judge.panel, else judge.apiKey) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from");
    // Both members that take the judge's key (judge.apiKey): still each member's, as its fix names it.
    const two = await outcome({ ...member('m0', { apiKey: 'sk-judge\n' }), panel: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2', apiKey: 'sk-good' }] }, 'split PPP');
    // Each member's reason bounded in the detail (its fix after "; " the cause's).
    const cut = "the request was not sent: that member's apiKey (judge.panel, else judge.apiKey) holds a line break or a character outside Latin-1, which no HTTP header can\u2026";
    expect(two.detail).toBe(`judge unreachable: panel: 2 of 3 members gave no usable score (2 usable needed): openai m0: ${cut}; openai m1: ${cut}`);
    // Said of both: it quoted the first member's words, "judge unreachable: the request was not sent: that member's apiKey ... holds ... can…".
    expect(two.cause).toMatchObject({
      what: "judge unreachable: the requests were not sent: those members' apiKeys (judge.panel, else judge.apiKey) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)",
      hint: "set those members' apiKeys (judge.panel, else judge.apiKey) again without the line break or the character outside Latin-1, where they are written or in the variables they are read from (a secret pasted with a line break)",
    });
    // The first of them alone, in its own words.
    const first = await outcome({ ...member('m0', { apiKey: 'sk-judge\n' }), panel: [{ model: 'm0' }, { model: 'm1', apiKey: 'sk-good' }, { model: 'm2', apiKey: 'sk-good' }] }, 'split PUP');
    expect(first.cause?.what).toBe(`judge unreachable: ${cut}`);
    // A single judge's, byte for byte.
    const single = await outcome(member('m0', { apiKey: 'sk-judge\n' }), 'split P');
    expect(single.detail).toContain('judge unreachable: the request was not sent: the judge key (judge.apiKey) holds a line break');
    expect(single.cause?.hint).toBe('set the judge key (judge.apiKey) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from (a secret pasted with a line break)');
  });

  // An anthropic member in an openai judge's panel: it never takes judge.apiKey (src/config.ts, panelMemberConfig).
  const anthropic = (label: string): NonNullable<JudgeConfig['panel']>[number] => ({ provider: 'anthropic', baseUrl: server.url, apiKey: 'sk-ant-own\n', label });

  it("its key that no header can carry: \"that member's apiKey (judge.panel)\", never \"else judge.apiKey\", in its reason and the cause's fix; 2 such: said of both", async () => {
    const one = await outcome({ ...member('m0'), panel: [anthropic('claude'), { model: 'm1' }, { model: 'm2' }] }, 'split PHP');
    // It read "that member's apiKey (judge.panel, else judge.apiKey)", a key it does not read.
    expect(one.detail).toContain("claude: (another provider) the request was not sent: that member's apiKey (judge.panel) holds a line break");
    expect(one.detail).not.toContain('else judge.apiKey');
    expect(one.cause?.hint).toBe(
      "the judge's endpoint failed: see its status or log, and run it again; for the 1 not reached (its key could not be sent): set that member's apiKey (judge.panel) again without the line break or the character outside Latin-1, where it is written or in the variable it is read from (a secret pasted with a line break)",
    );
    const two = await outcome({ ...member('m0'), panel: [anthropic('claude a'), anthropic('claude b'), { model: 'm2' }] }, 'split PPP');
    expect(two.cause).toMatchObject({
      what: "judge unreachable: the requests were not sent: those members' apiKeys (judge.panel) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)",
      hint: "set those members' apiKeys (judge.panel) again without the line break or the character outside Latin-1, where they are written or in the variables they are read from (a secret pasted with a line break)",
    });
    // Beside one that takes the judge's key: the rule of both, "judge.panel, else judge.apiKey".
    const mixed = await outcome({ ...member('m0', { apiKey: 'sk-judge\n' }), panel: [anthropic('claude'), { model: 'm1' }, { model: 'm2', apiKey: 'sk-good' }] }, 'split PPP');
    expect(mixed.detail).toContain("claude: (another provider) the request was not sent: that member's apiKey (judge.panel) holds");
    expect(mixed.detail).toContain("openai m1: the request was not sent: that member's apiKey (judge.panel, else judge.apiKey) holds");
    expect(mixed.cause).toMatchObject({
      what: "judge unreachable: the requests were not sent: those members' apiKeys (judge.panel, else judge.apiKey) hold a line break or a character outside Latin-1, which no HTTP header can carry (UND_ERR_INVALID_ARG)",
      hint: expect.stringMatching(/^set those members' apiKeys \(judge\.panel, else judge\.apiKey\) again /) as unknown,
    });
  });
});

describe("a panel's reason in the detail: every member visible, each bounded", () => {
  const answering = (name: string, reason: string): Judge => ({
    name,
    score: () => Promise.resolve({ ok: false, reason, answered: true }),
    scoreTranscript: () => Promise.resolve({ ok: false, reason, answered: true }),
    close: () => Promise.resolve(),
  });
  it("a member's fix within the first 200 characters no longer cuts the line there: the members after it are shown, each reason without its fix when over its bound", async () => {
    const alert = 'it answered the TLS handshake with an alert: handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)';
    const fix = 'check whether the server asks for a client certificate (agent-replay presents none), which TLS versions it accepts';
    const long = `no usable score in output: "${'words '.repeat(60).trim()}"`;
    const panel = createPanelJudge([answering('a', `${alert}; ${fix}`), answering('b', 'no usable score in output: "I would rather not"'), answering('c', long)]);
    const o = judgeOutcome(await panel.score('polite', 'the reply'), 0.7);
    await panel.close();
    expect(o.detail.startsWith(`judge gave no usable answer: panel: 3 of 3 members gave no usable score (2 usable needed): a: ${alert}; b: no usable score in output: "I would rather not"; c: no usable score in output: "words`)).toBe(true);
    expect(o.detail).toMatch(/; c: no usable score in output: "words (?:words )*words\u2026$/);
    expect(o.detail.slice(o.detail.indexOf('; c: ') + 5).length).toBeLessThanOrEqual(160);
    // The members' own words stay in the record whole.
    expect(o.members?.[0]?.reason).toBe(`${alert}; ${fix}`);
  });
});

describe("a panel's members cut at their token limit: the cause gives the limit's fix, not the prompt-following one", () => {
  const panelCutFix = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of those members' models at their endpoints (judge.panel, else judge.model)");
  // One member cut: its fix says so (it read "for the 1 cut at the token limit: raise the output-token limit of those members' models at their endpoints").
  const oneCutFix = JUDGE_CUT_HINT.replace('of judge.model at its endpoint', "of that member's model at its endpoint (judge.panel, else judge.model)");
  it('every member without a score cut: the cut cause, its fix naming the members\' models', async () => {
    const o = await judged(3, 'split LLP');
    expect(o.detail).toMatch(/^judge gave no usable answer: panel: 2 of 3 members gave no usable score \(2 usable needed\): openai m0: the answer was cut at the model's token limit \(finish_reason "length"\) before it ended: nothing in it is read; openai m1: the answer was cut /);
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: o.detail }, null)).toEqual({
      key: 'judge:cut:panel',
      what: "the judge's answer was cut at its token limit (panel: 2 of 3 members)",
      hint: panelCutFix,
      // Said of more in a group whose items' counts differ, whichever comes first (Cause.apart).
      apart: panelCutFix,
    });
  });
  it('some cut, some without a score: both fixes, once each; some cut, some unreachable: the address\'s and the limit\'s', async () => {
    const u = await judged(3, 'split LUP');
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: u.detail }, null)).toEqual({
      key: 'judge:no-score:panel:panel-cut',
      what: 'the judge answered without a usable score',
      hint: `${PANEL_NO_SCORE_HINT}; for the 1 cut at the token limit: ${oneCutFix}`,
      apart: `${PANEL_NO_SCORE_HINTS}; for those cut at the token limit: ${panelCutFix}`,
    });
    const h = await judged(3, 'split LHP');
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: h.detail }, null)).toEqual({
      key: 'judge:503:panel-cut',
      what: 'judge unreachable: HTTP 503',
      hint: `the judge's endpoint failed: see its status or log, and run it again; for the 1 cut at the token limit: ${oneCutFix}`,
      apart: `the judges' endpoints failed: see their statuses or logs, and run it again; for those cut at the token limit: ${panelCutFix}`,
    });
  });
  it("some unreachable, some without a score: the address's fix and the prompt-following one, once each (it gave the address's alone)", async () => {
    const h = await judged(3, 'split HUP');
    expect(h.detail).toMatch(/^judge unreachable: panel: 2 of 3 members gave no usable score \(2 usable needed; 1 unreachable, 1 gave no usable answer\): openai m0: HTTP 503: .*; openai m1: no usable score in output: /);
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: h.detail }, null)).toEqual({
      key: 'judge:503:panel-no-score',
      what: 'judge unreachable: HTTP 503',
      hint: `the judge's endpoint failed: see its status or log, and run it again; for the 1 that answered without a usable score: ${PANEL_NO_SCORE_HINT}`,
      apart: `the judges' endpoints failed: see their statuses or logs, and run it again; for those that answered without a usable score: ${PANEL_NO_SCORE_HINTS}`,
    });
    // All three ways: each fix once, the panel's own first.
    const five = await judged(5, 'split HULPP');
    expect(causeOf({ label: 'a', errored: false, verdict: 'not_evaluated', detail: five.detail }, null)?.hint).toBe(
      `the judge's endpoint failed: see its status or log, and run it again; for the 1 that answered without a usable score: ${PANEL_NO_SCORE_HINT}; for the 1 cut at the token limit: ${oneCutFix}`,
    );
  });
});

describe('panelVerdict (the rule, on members as recorded)', () => {
  const m = (score: number | null): PanelMember => ({ label: 'x', score, rationale: score === null ? null : 'r', reason: score === null ? 'no usable score' : null });
  it.each([
    [[0.9, 0.9, 0.2], 'pass'],
    [[0.9, 0.2, 0.2], 'fail'],
    [[0.9, null, null], 'not_evaluated'],
    [[0.9, 0.9, null], 'pass'],
    [[0.9, 0.2, null], 'fail'],
    [[0.9, 0.9, 0.2, null, null], 'fail'],
    [[0.9, 0.9, 0.9, null, null], 'pass'],
    [[0.9, 0.9, null, null, null], 'not_evaluated'],
    [[0.7, 0.7, 0.69], 'pass'],
  ] as const)('%j at 0.7: %s', (scores, verdict) => {
    expect(panelVerdict(scores.map(m), 0.7).verdict).toBe(verdict);
  });
});

// A panel whose one member moves (docs/judges.md, "A judge that answers differently"): the agent
// gave the same reply every time, and one member's answers moved the panel's verdict; every flip
// line, across the attempts of one run and between two runs, names that member, not only the panel.
describe('a panel whose one member moved', () => {
  const SCRIPT: PersonaScript = {
    label: 'calm-script',
    file: 'p.yml',
    line: 1,
    persona: null,
    opening: 'hello?',
    followUps: [],
    maxTurns: 20,
    threshold: 0.7,
    mocks: [],
    expect: { conversations: [], terminal: null, toolCalled: [], toolNotCalled: [], criteria: ['split PPP', 'split PF'] },
  };
  const fixture = (label: string, assertion: Fixture['assertion'], repeat?: Fixture['repeat']): Fixture => ({ label, message: `${label}?`, persona: null, assertion, file: 'f.yml', line: 1, ...(repeat ? { repeat } : {}) });
  const judgeCheck = { kind: 'judge' as const, criterion: 'split PF', threshold: 0.7 };
  const listed = { kind: 'all' as const, assertions: [{ kind: 'contains' as const, value: '30 days' }, judgeCheck] };

  /**
   * Replays the items against one agent (each message its own steady reply) and a panel of three
   * on one loopback judge: m0 passes and m1 fails "split PF"; m2 answers it `m2(n)`, n counting its
   * calls on that input (the reply or transcript it read) and `run` the run (0, then 1), over `runs` runs.
   */
  async function replayPanel(items: { fixtures: Fixture[]; personas: PersonaScript[] }, m2: (n: number, run: number) => number, runs = 1): Promise<RunRecord[]> {
    let run = 0;
    const calls = new Map<string, number>();
    const judgeServer = await startServer([
      (res, req) => {
        const body = req.body as { model: string; messages: { role: string; content: string }[] };
        const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
        const n = (calls.get(user) ?? 0) + 1;
        if (body.model === 'm2' && user.includes('split PF\n')) calls.set(user, n);
        const a = body.model === 'm2' && user.includes('split PF\n') ? { status: 200, body: { choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: 'm2', score: m2(n, run) }) } }] } } : panelAnswer(req);
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(a.body));
      },
    ]);
    const agentServer = await startAgentServer((req) => ({ json: { reply: `${String((req.json as { message?: unknown }).message)} Refunds within 30 days.`, route: null } }));
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: agentServer.url, start: null, concurrency: 3, retries: 0 });
    const judge = createConfiguredJudge({ ...member('m0'), baseUrl: judgeServer.url, panel: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }] });
    const regex = { test: async () => ({ kind: 'no_match' as const }), close: async () => undefined };
    try {
      const records: RunRecord[] = [];
      for (; run < runs; run++) records.push(await replay({ ...items, baselines: NO_BASELINES }, { agent, regex, judge }, replayOptions({ judgeModel: 'openai/m0' })));
      return records;
    } finally {
      await Promise.all([judge.close(), agent.close()]);
      await Promise.all([judgeServer.close(), agentServer.close()]);
    }
  }

  it('across the attempts of a repeated judge assertion, assertion list and persona script: names the member, with its own passes and scores', async () => {
    // m2 passes its first two calls on each input and fails its third.
    const repeat = { count: 3, minPass: 2 };
    const [run] = await replayPanel({ fixtures: [fixture('returns', judgeCheck, repeat), fixture('listed', listed, repeat)], personas: [{ ...SCRIPT, repeat }] }, (n) => (n <= 2 ? 0.9 : 0.2));
    const [f, l] = (run as RunRecord).fixtures as [FixtureRecord, FixtureRecord];
    const s = (run as RunRecord).personas[0] as PersonaRecord;
    for (const item of [f, l, s]) expect(item.attempts?.map((a) => a.verdict).sort()).toEqual(['fail', 'pass', 'pass']);
    const member = '; the panel member that moved: openai m2, 2 passed (0.90), 1 failed (0.20)';
    expect(judgeAcrossAttempts(f)).toBe(`the judge answered the same reply differently across the attempts: 2 passed (0.90), 1 failed (0.20)${member}`);
    // The list's judge check is the one check that moved ("30 days" is there on every attempt).
    expect(judgeAcrossAttempts(l)).toBe(`the judge answered the same reply differently across the attempts: 2 passed (0.90), 1 failed (0.20)${member}`);
    expect(judgeAcrossAttempts(s)).toBe(`the judge answered the same transcript differently across the attempts: criterion 2, 2 passed (0.90), 1 failed (0.20)${member}`);
    // The comment's attempts lines and its flaky line say it for the list and the script too.
    const comment = renderComment(run as RunRecord, DEFAULT_CONTEXT);
    expect(comment.split('the judge answered the same reply differently across the attempts').length - 1).toBe(2);
    expect(comment).toContain(String.raw`the judge answered the same transcript differently across the attempts\: criterion 2, 2 passed \(0.90\), 1 failed \(0.20\); the panel member that moved\: openai m2`);
    expect(comment).toContain('the same reply or transcript on every attempt, judged differently: `returns`, `listed`, `calm-script`');
    // The script alone: its attempts share a transcript, not a reply.
    const scriptOnly = renderComment({ ...(run as RunRecord), fixtures: [] }, DEFAULT_CONTEXT);
    expect(scriptOnly).toContain('the same transcript on every attempt, judged differently: `calm-script`');
    expect(scriptOnly).not.toContain('the same reply');
    // report.html says it above each item's attempts, as the comment does.
    // A sentence of its own there, capitalized by the product's rule (words.ts).
    expect(itemsData([f, l, s]).map((d) => d.attemptsJudge)).toEqual([f, l, s].map((i) => `${capitalized(judgeAcrossAttempts(i)!)}.`));
    expect(itemsData([f]).map((d) => d.attemptsJudge)[0]).toContain('the panel member that moved: openai m2');
  });

  it('between two runs of a judge assertion, assertion list and persona script, once or repeated: names the member, with both runs\u2019 answers', async () => {
    // m2 passes every call of the first run and fails every call of the second.
    const [a, b] = await replayPanel(
      { fixtures: [fixture('returns', judgeCheck), fixture('listed', listed), fixture('again', judgeCheck, { count: 3, minPass: 2 })], personas: [SCRIPT] },
      (_, run) => (run === 0 ? 0.9 : 0.2),
      2,
    );
    const flip = (label: string): string | null => {
      const of = (r: RunRecord | undefined) => [...(r?.fixtures ?? []), ...(r?.personas ?? [])].find((i) => i.label === label) as FixtureRecord | PersonaRecord;
      return judgeFlip(of(a), of(b));
    };
    // A list keeps its judge check's members, as a judge assertion does: an accepted result is decided by their majority again.
    const listedRecord = a?.fixtures.find((f) => f.label === 'listed');
    expect(listedRecord?.members?.map((m) => [m.label, m.score])).toEqual([['openai m0', 0.9], ['openai m1', 0.2], ['openai m2', 0.9]]);
    expect(baselineJudgeOf(listedRecord as FixtureRecord)?.members).toHaveLength(3);
    expect(flip('returns')).toBe('the judge answered the same reply differently: pass (0.90) → fail (0.20); the panel member that moved: openai m2, pass (0.90) → fail (0.20)');
    expect(flip('listed')).toBe('the judge answered the same reply differently: pass (0.90) → fail (0.20); the panel member that moved: openai m2, pass (0.90) → fail (0.20)');
    expect(flip('again')).toBe('the judge answered the same reply differently: 3/3 passed (0.90) → 0/3 passed (0.20); the panel member that moved: openai m2, 3/3 passed (0.90) → 0/3 passed (0.20)');
    expect(flip('calm-script')).toBe('the judge answered the same transcript differently: criterion 2 pass (0.90) → fail (0.20); the panel member that moved: openai m2, pass (0.90) → fail (0.20)');
  });
});

// A single judge's item and a panel's in one report (a merge of runs, src/record/index.ts): where a
// panel's first cause has a fix that names its members' settings (an answer without a usable score,
// an HTTP 200 with an error, an answer not read), each is a group with its own fix, never one under
// the panel's words said of the single judge (docs/judges.md, "Panels").
describe("a single judge's item and a panel's in one run", () => {
  const said = (content: string): [string, string] => ['application/json', JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] })];
  /** Each model's HTTP 200, its content type and body: prose (no usable score), an error in place of an answer, an HTML page; "ok" scores. */
  const answers: Record<string, [string, string]> = {
    prose: said('I would rather not give a number.'),
    error: ['application/json', JSON.stringify({ error: { message: 'Overloaded', type: 'server_error' } })],
    html: ['text/html', '<html><body>sign in</body></html>'],
    ok: said('{"rationale": "ok", "score": 0.9}'),
  };
  let judgeServer: TestServer;
  beforeAll(async () => {
    judgeServer = await startServer([
      (res, req) => {
        const [type, body] = answers[(req.body as { model: string }).model] ?? said('');
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      },
    ]);
  });
  afterAll(() => judgeServer.close());

  /** Replays one fixture, with a baseline, against a judge from config.yml. */
  async function replayOne(label: string, config: JudgeConfig): Promise<RunRecord> {
    const agentServer = await startAgentServer(() => ({ json: { reply: 'Refunds within 30 days.', route: null } }));
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: agentServer.url, start: null, concurrency: 1, retries: 0 });
    const judge = createConfiguredJudge(config);
    const regex = { test: async () => ({ kind: 'no_match' as const }), close: async () => undefined };
    const f: Fixture = { label, message: `${label}?`, persona: null, assertion: { kind: 'judge', criterion: 'The reply is polite', threshold: 0.7 }, file: 'f.yml', line: 1 };
    const stored = { label, reply: 'Refunds within 30 days.', route: null, verdict: 'pass' as const, acceptedAt: '2026-11-30T10:00:00Z', commit: 'a1b2c3d' };
    try {
      return await replay({ fixtures: [f], personas: [], baselines: { fixtures: new Map([[label, stored]]), personas: new Map() } }, { agent, regex, judge }, replayOptions({ judgeModel: 'openai/x' }));
    } finally {
      await Promise.all([judge.close(), agent.close()]);
      await agentServer.close();
    }
  }

  /** One run of a single judge's item (`single`) and a panel's of 3 (`panel`, 2 members of `model`): the terminal's group lines and the comment's. */
  async function both(model: string): Promise<{ terminal: string[]; comment: string[] }> {
    const config = { ...member(model), baseUrl: judgeServer.url };
    const run = mergeRecords([await replayOne('single', config), await replayOne('panel', { ...config, panel: [{}, {}, { model: 'ok' }] })]);
    return {
      terminal: renderTerminal(run, { color: false }).split('\n').filter((l) => /^ {2}\S/.test(l) && /^ {2}(?:1 of 2|all 2): /.test(l)),
      comment: renderComment(run, DEFAULT_CONTEXT).split('\n').filter((l) => /^\*\*(?:1 of 2|all 2)\\:/.test(l)),
    };
  }

  it('answered without a usable score: the single judge\'s "use a judge model", the panel\'s "(judge.panel, else judge.model)", each its group', async () => {
    // One group "all 2" said the panel's "(judge.panel, else judge.model)" of the single judge, which has no judge.panel.
    const { terminal, comment } = await both('prose');
    expect(terminal).toEqual([
      `  1 of 2: the judge answered without a usable score: ${JUDGE_NO_SCORE_HINT}`,
      `  1 of 2: the judge answered without a usable score: ${PANEL_NO_SCORE_HINTS}`,
    ]);
    expect(comment).toHaveLength(2);
    expect(comment[0]).toContain(escapeInline('without a usable score: use a judge model that follows the prompt, or an endpoint'));
    expect(comment[1]).toContain(escapeInline('use judge models that follow the prompt (judge.panel, else judge.model), or endpoints'));
  });

  it("an HTTP 200 with an error: the single judge's judge.model and key, the panel's members' own", async () => {
    // One group "all 2" said "check those members' models (judge.panel, else judge.model) and those members' apiKeys ..." of the single judge.
    const { terminal, comment } = await both('error');
    expect(terminal).toEqual([
      `  1 of 2: the judge's endpoint answered HTTP 200 with an error in place of an answer: ${JUDGE_ERROR_200_HINT}`,
      expect.stringMatching(/^ {2}1 of 2: the judge's endpoint answered HTTP 200 with an error in place of an answer \(panel: 2 of 3 members\): read the error the item quotes: check those members' models \(judge\.panel, else judge\.model\) and those members' apiKeys \(judge\.panel, else judge\.apiKey\) at/),
    ]);
    expect(comment[0]).toContain(escapeInline('check judge.model and the judge key at the endpoint'));
    expect(comment[1]).toContain(escapeInline("check those members' models (judge.panel, else judge.model)"));
  });

  it("an answer that is not JSON: the single judge's judge.baseUrl and log, the panel's members' baseUrl and logs", async () => {
    // One group "all 2" said "check that the baseUrl of those members (...) ..., and see the judges' logs" of the single judge.
    const { terminal, comment } = await both('html');
    expect(terminal).toEqual([
      "  1 of 2: the judge answered with a body that is not JSON: check that --judge-url (judge.baseUrl) is the API's base URL (an HTML page answers a wrong path), and see the judge's log",
      "  1 of 2: the judge answered with a body that is not JSON: check that the baseUrl of those members (judge.panel, else --judge-url (judge.baseUrl)) is the API's base URL (an HTML page answers a wrong path), and see the judges' logs",
    ]);
    expect(comment[0]).toContain(escapeInline("check that judge-base-url (judge.baseUrl) is the API's base URL"));
    expect(comment[1]).toContain(escapeInline('check that the baseUrl of those members (judge.panel, else judge-base-url (judge.baseUrl))'));
  });
});

// A merge of shards (src/record/index.ts) one judged by a single judge and one by a panel: a judge's
// evidence that it answered other calls of the run is its own calls' (its fingerprint's model and
// address), never the panel's, so a single judge that answered none is not told to run it again.
describe("a single judge's dropped connection in a merge with a panel's shard", () => {
  const DROP = 'The reply says when refunds are due';
  let judgeServer: TestServer;
  beforeAll(async () => {
    // Closes the connection of a request about DROP without an answer; scores every other.
    judgeServer = await startServer([
      (res, req) => {
        if (JSON.stringify(req.body).includes(DROP)) return hangUp(res, req);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: '{"rationale": "ok", "score": 0.9}' } }] }));
      },
    ]);
  });
  afterAll(() => judgeServer.close());

  /** A shard: its fixtures (label and criterion), judged by `config` as a run names it (judgeModelOf, judgeEndpointOf: src/engine.ts). */
  async function shard(config: JudgeConfig, fixtures: [string, string][]): Promise<RunRecord> {
    const agentServer = await startAgentServer(() => ({ json: { reply: 'Refunds within 30 days.', route: null } }));
    const agent = createHttpAgentClient({ ...defaultConfig().agent, url: agentServer.url, start: null, concurrency: 1, retries: 0 });
    const judge = createConfiguredJudge(config);
    const regex = { test: async () => ({ kind: 'no_match' as const }), close: async () => undefined };
    const fs: Fixture[] = fixtures.map(([label, criterion]) => ({ label, message: `${label}?`, persona: null, assertion: { kind: 'judge', criterion, threshold: 0.7 }, file: 'f.yml', line: 1 }));
    try {
      return await replay({ fixtures: fs, personas: [], baselines: NO_BASELINES }, { agent, regex, judge }, replayOptions({ judgeModel: judgeModelOf(config), judgeEndpoint: judgeEndpointOf(config) }));
    } finally {
      await Promise.all([judge.close(), agent.close()]);
      await agentServer.close();
    }
  }

  /** The terminal's cause line of a merge of these shards. */
  const causeLineOf = (run: RunRecord): string | undefined => renderTerminal(run, { color: false }).split('\n').find((l) => l.startsWith('  cause: '));

  it('one that answered no call is told to see its log, not that it answered other calls; one that did, to run it again', async () => {
    const single = { ...member('gpt-4o-mini'), baseUrl: judgeServer.url };
    const panel = await shard({ ...single, model: 'x', panel: [{}, {}, {}] }, [['scored', 'The reply is polite']]);
    expect(panel.fixtures[0]?.verdict).toBe('pass');
    const dropped = await shard(single, [['dropped', DROP]]);
    expect(dropped.fixtures[0]?.detail).toMatch(/^judge unreachable: .*closed/);
    // It read "the judge answered other calls of this run, so ... work: ... run it again": the panel's answer, said of the single judge.
    const merged = mergeRecords([dropped, panel]);
    expect(causeLineOf(merged)).toMatch(/^ {2}cause: judge unreachable: .*: see the judge's log for a crash on the request, or a proxy in front of it that closes connections$/);
    expect(renderComment(merged, DEFAULT_CONTEXT)).not.toContain('answered other calls');
    // The same judge that scored another item of its shard: its own answer, run it again.
    const answered = mergeRecords([await shard(single, [['dropped', DROP], ['polite', 'The reply is polite']]), panel]);
    expect(causeLineOf(answered)).toMatch(/: the judge answered other calls of this run, so .* work: .*: run it again, and lower judge\.concurrency if it recurs$/);
  });
});
