// `agent-replay calibrate` (docs/calibration.md): re-judge the stored baselines with the configured
// judge and compare its verdicts with the accepted ones. Asks the agent nothing. Exit status: 0, 1
// when a criterion's agreement is below --min-agreement, 2 for a usage or configuration error or a
// calibration refused by the cost cap (nothing is sent then).

import { join, relative, sep } from 'node:path';
import { panelMembers, type Config } from '../config.js';
import type { Judge, JudgeResult } from '../types.js';
import { UsageError } from '../engine.js';
import { EXIT } from '../errors.js';
import { loadSuite, repoPathOf } from '../suite/index.js';
import { suiteName } from '../action/context.js';
import { callsPerCriterion, createConfiguredJudge, judgeEndpointOf, judgeModelOf } from '../judge/index.js';
import { JUDGE_PROMPT_VERSION } from '../judge/prompt.js';
import { makeRedactor } from '../secrets.js';
import { TOOL } from '../version.js';
import { formatUsdPair } from '../report/money.js';
import { terminalLine } from '../report/escape.js';
import { planCalibration } from '../calibrate/plan.js';
import { estimateCalibration, summarizeCalibration, type CalibrationEstimate } from '../calibrate/summary.js';
import { rejudge } from '../calibrate/run.js';
import { belowMinimum, calibrationSchema, unmeasured, CALIBRATION_VERSION, type Calibration } from '../calibrate/schema.js';
import { renderCalibrationMarkdown, renderCalibrationText } from '../calibrate/render.js';
import { wholeNumberFlag, type Values } from './options.js';
import { checkOutputPaths, printConfigIssues, progressDrawer, redrawsProgress, resolvePath, writeText, writtenText, type CliIO } from './output.js';

const MAX_REPEAT = 20;

function parseRepeat(text: string | undefined): number {
  return text === undefined ? 1 : wholeNumberFlag('repeat', text, 1, MAX_REPEAT);
}

function parseMinAgreement(text: string | undefined): number | null {
  if (text === undefined) return null;
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new UsageError(`--min-agreement must be a fraction from 0 to 1 (0.9 for 90%), got "${terminalLine(text)}"`);
  return n;
}

/** The terminal's refusal: the figures and how to confirm; nothing was sent. `config`: the suite's config file (`.agent-replay/config.yaml`). */
function calibrateRefusalText(e: CalibrationEstimate, config: string): string {
  const [est, cap] = formatUsdPair(e.usd, e.capUsd);
  return (
    `not run: the estimated cost ${est} for ${e.calls} judge ${e.calls === 1 ? 'call' : 'calls'} (${e.baselines} ${e.baselines === 1 ? 'baseline' : 'baselines'} x --repeat ${e.repeat}${e.members !== undefined ? ` x ${e.members} panel members` : ''} x ${formatUsdPair(e.judgeCallUsd, 0)[0]} a call) is above the cost cap ${cap}.\n` +
    'Nothing was sent to the judge and nothing was spent. The estimate is a flat guess per call, not a bill.\n' +
    `To run it anyway, rerun with --confirm-cost, or raise cost.capUsd in ${config}.\n`
  );
}

/** A judge whose calls and retries are counted where they are made. */
function counted(judge: Judge, n: { calls: number }): Judge {
  return {
    name: judge.name,
    score: (criterion, reply) => {
      n.calls++;
      return judge.score(criterion, reply);
    },
    scoreTranscript: (criterion, turns) => {
      n.calls++;
      return judge.scoreTranscript(criterion, turns);
    },
    ...(judge.structuredOutput ? { structuredOutput: judge.structuredOutput.bind(judge) } : {}),
    close: () => judge.close(),
  };
}

/**
 * As `run`'s (docs/calibration.md): on a terminal a line that counts the answers, drawn as `run`'s
 * is (progressDrawer: ended before any other output, cut to the terminal's width); elsewhere (a
 * dumb terminal too) a plain line every 10 s and one at the end.
 */
function progress(io: CliIO, members: number): (answers: number, of: number) => void {
  const now = (): number => (io.now?.() ?? new Date()).getTime();
  let last = now();
  const draw = progressDrawer(io);
  // A panel's answer is one call per member (docs/judges.md, "Cost"): counted in the calls the
  // headline and the estimate count, not in answers (4/4 beside "12 judge calls").
  return (answers, of) => {
    const done = answers * members;
    const total = of * members;
    if (redrawsProgress(io)) draw(`[${done}/${total}] judge calls`, done === total);
    else if (done === total || now() - last >= 10_000) {
      last = now();
      io.stderr(`progress: ${done}/${total} judge calls\n`);
    }
  };
}

function display(cwd: string, path: string): string {
  const rel = relative(cwd, path);
  return (rel.startsWith('..') ? path : rel).split(sep).join('/');
}

export async function runCalibrate(values: Values, io: CliIO): Promise<number> {
  const repeat = parseRepeat(values.repeat);
  const minAgreement = parseMinAgreement(values['min-agreement']);
  const dir = values.dir ?? '.agent-replay';
  // Before any judge call is paid for: a folder, or both flags on one file (docs/cli.md, "What each command does").
  checkOutputPaths({ ...(values.out === undefined ? {} : { out: values.out }), ...(values.markdown === undefined ? {} : { markdown: values.markdown }) }, io, { outIsRecord: false });
  const loaded = await loadSuite({ dir, env: io.env, cwd: io.cwd, overrides: values['judge-url'] ? { judge: { baseUrl: values['judge-url'] } } : {} });
  if (loaded.errors.length > 0 || loaded.suite === null) {
    printConfigIssues(io, loaded.errors, loaded.warnings, 'nothing was sent to the judge');
    return EXIT.usage;
  }
  printConfigIssues(io, [], loaded.warnings);
  const suite = loaded.suite;
  const config: Config = suite.config;
  // The config file by the name the suite has it (config.yml, or config.yaml: docs/configuration.md), the
  // suite folder as given: a control character in its name shown as an escape (docs/security.md, "Agent text is data").
  const configFile = terminalLine(`${dir}/${suite.configName}`);
  if (config.judge === null) {
    io.stderr(`error: ${configFile}: no judge is configured: calibrate re-judges the baselines with the judge a run uses\n  fix: add a judge section (provider, model, apiKey) to ${configFile}\n`);
    return EXIT.usage;
  }
  const plan = planCalibration({
    fixtures: suite.fixtures,
    personas: suite.personas,
    baselines: suite.baselines,
    personaBaselines: suite.personaBaselines,
    baselineFile: (label) => display(io.cwd, join(suite.baselinesDir, `${label}.json`)),
  });
  const estimate = estimateCalibration(plan.targets.length, repeat, config.cost, values['confirm-cost'] === true, callsPerCriterion(config.judge));
  if (estimate.aboveCap && !estimate.confirmed) {
    io.stderr(calibrateRefusalText(estimate, configFile));
    return EXIT.usage;
  }
  const spend = { calls: 0, retries: 0 };
  // A panel of judges (docs/judges.md, "Panels"): every member's call is counted.
  const made = io.engine?.makeJudge
    ? io.engine.makeJudge(config)
    : createConfiguredJudge(config.judge, { clock: io.engine?.clock, onRetry: () => void spend.retries++ }, (member) => counted(member, spend));
  // Null only from an injected makeJudge (io.engine): said of the suite's file all the same.
  if (made === null) throw new UsageError(`no judge could be made from ${configFile}`);
  const judge = io.engine?.makeJudge ? counted(made, spend) : made;
  let answers: JudgeResult[][];
  try {
    answers = await rejudge(plan.targets, judge, {
      repeat,
      // A panel's members each keep their own limit (docs/judges.md, "Panels"): as many baselines
      // in flight as the largest of them takes, so that no member is held below its concurrency.
      concurrency: Math.max(...(panelMembers(config.judge) ?? [config.judge]).map((j) => j.concurrency)),
      onAnswer: progress(io, callsPerCriterion(config.judge)),
    });
  } finally {
    await judge.close();
  }
  // A rationale or reason never carries a configured secret, a panel member's neither (a panel's
  // answer shows its first agreeing member's rationale: docs/judges.md, "Panels").
  const redact = makeRedactor(config.secrets);
  const members = (a: JudgeResult): Pick<JudgeResult, 'members'> =>
    a.members === undefined ? {} : { members: a.members.map((m) => ({ ...m, rationale: m.rationale === null ? null : redact(m.rationale), reason: m.reason === null ? null : redact(m.reason) })) };
  const clean = answers.map((list) => list.map((a): JudgeResult => (a.ok ? { ...a, rationale: redact(a.rationale), ...members(a) } : { ok: false, reason: redact(a.reason) })));
  const figures = summarizeCalibration(plan, clean, minAgreement);
  const calibration: Calibration = calibrationSchema().parse({
    calibrationVersion: CALIBRATION_VERSION,
    tool: { ...TOOL },
    calibratedAt: (io.now?.() ?? new Date()).toISOString(),
    suite: dir,
    judge: {
      name: judge.name,
      model: judgeModelOf(config.judge),
      // Where it was asked, as a run's judge fingerprint keeps it: the same model elsewhere is another judge.
      endpoint: judgeEndpointOf(config.judge, redact),
      promptVersion: JUDGE_PROMPT_VERSION,
      structuredOutput: judge.structuredOutput ? judge.structuredOutput() : null,
    },
    repeat,
    minAgreement,
    estimate,
    spend: { judgeCalls: spend.calls, judgeRetries: spend.retries },
    ...figures,
  } satisfies Calibration);
  if (values.out) await writeText(resolvePath(io, values.out), `${JSON.stringify(calibration, null, 2)}\n`, 'out');
  // Under the suite's folder in its repository when it is not the default one, as run's --markdown names it.
  const repo = await repoPathOf(resolvePath(io, dir));
  const suiteShown = repo === null ? null : suiteName(repo.path);
  if (values.markdown) await writeText(resolvePath(io, values.markdown), renderCalibrationMarkdown(calibration, { suite: suiteShown, out: values.out || null, configName: suite.configName }), 'markdown');
  io.stdout(renderCalibrationText(calibration, { suite: suiteShown, out: values.out || null, configName: suite.configName }));
  // Where the files went, as run and report say it after their summary.
  io.stdout(writtenText(values.out ? resolvePath(io, values.out) : null, values.markdown ? { markdown: values.markdown } : {}, io, 'calibration'));
  return belowMinimum(calibration).length > 0 || unmeasured(calibration).length > 0 ? EXIT.gate : EXIT.ok;
}
