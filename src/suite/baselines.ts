// Baseline files: `<baselines>/<label>.json`, one per fixture, written only by acceptance.

import * as z from 'zod';
import { MAX_VARIANTS, type Baseline, type BaselineJudge, type PanelMember, type PersonaBaseline, type TimeSplit } from '../types.js';
import { keptJudgeContradicts, panelVerdict } from '../assertions/judge.js';
import { nearestName, quote, suggest, translateZodIssues, type ConfigIssue } from './issues.js';
import { documentSource, type Position, type SourceFile } from './yaml/index.js';
import { isValidLabel, LABEL_RULE } from './labels.js';
import { shownJson, shownShellWord } from '../words.js';
import { namedRecord } from './named-record.js';
import { onFirstUse } from '../patterns.js';
import { hideEndpointTokens } from '../endpoint.js';
import { cutShortAt, deepJsonOffset, handEditError, jsonErrorOffset, jsonErrorWords, lineColumnAt, MAX_JSON_DEPTH } from './json-depth.js';
import { mergeConflicts } from './merge-conflict.js';

/**
 * The most attempts a baseline (or a results file's item) may hold: acceptance writes at most
 * repeat.max's limit (20); a larger count was written by hand, and a tally of billions would have
 * the run's statistics draw from arrays that size (docs/statistics.md, "A baseline's attempts").
 */
export const MAX_BASELINE_ATTEMPTS = 1000;

/**
 * The baseline schemas, built on first use and the same objects on every call after, not when the
 * module loads: a run without baselines reads none, and a CLI start should not pay for building them
 * (docs/performance.md, "2026-12-07 (small hours): the session's figures"). results.json's schema
 * (src/record/schema.ts) takes its shared parts from here.
 */
export const baselineSchemas = onFirstUse(() => {
  const routeSchema = z.strictObject({ conversation: z.string(), stage: z.string() });

  /** What judged an item (docs/fixtures.md#judge-reuse; shared with results.json, which imports it from here). */
  const judgeFingerprintSchema = z.strictObject({
    model: z.string().nullable(),
    // Added within schema version 1: where the judge was asked; absent in older records and baselines.
    // One written before tokens in a path were hidden is read as it is written now (docs/security.md, "Secrets").
    endpoint: z.string().transform(hideEndpointTokens).optional(),
    promptVersion: z.string(),
    criteria: z.array(z.strictObject({ criterion: z.string(), threshold: z.number().min(0).max(1) })),
  });

  /**
   * Judge reuse (docs/fixtures.md#judge-reuse): the judge's result kept with an accepted reply. A score outside 0..1 or a
   * fingerprint of any other shape is refused like any other malformed baseline, with file and line.
   */
  /** A panel member's answer (docs/judges.md, "Panels"): a score and rationale, or the reason it gave none. */
  const panelMemberSchema = z.strictObject({
    label: z.string(),
    score: z.number().min(0).max(1).nullable(),
    rationale: z.string().nullable(),
    reason: z.string().nullable(),
  });

  const baselineJudgeSchema = z.strictObject({
    score: z.number().min(0).max(1),
    rationale: z.string(),
    fingerprint: judgeFingerprintSchema,
    // A panel's result: every member's answer (absent for a single judge).
    members: z.array(panelMemberSchema).optional(),
  });

  /** Tokens reported (docs/latency.md, "Usage"); shared with results.json, which imports it from here. */
  const tokenUsageSchema = z.strictObject({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() });

  /**
   * A repeated item's attempts (docs/statistics.md); shared with results.json, which imports it from here. That passed is
   * at most total, and agrees with the verdict, is checked after parsing (checkBaselineFile), with the file and line.
   */
  const baselineAttemptsSchema = z.strictObject({ passed: z.number().int().nonnegative(), total: z.number().int().min(1).max(MAX_BASELINE_ATTEMPTS) });

  /**
   * Replies a maintainer accepted as meaning the same as the baseline reply (docs/meaning.md, "Variants"); results.json
   * reads baselines through these schemas too. Acceptance writes at most MAX_VARIANTS; a longer list was edited by hand
   * and is refused at its line after parsing (tooManyVariants), with a message that says how many.
   */
  const variantsSchema = z.array(z.string());

  /** A turn's time split from traces (docs/traces.md, "Time"). */
  const timeSplitSchema = z.strictObject({
    modelMs: z.number().nonnegative(),
    toolMs: z.number().nonnegative(),
    otherMs: z.number().nonnegative(),
    // By the agent's tool names, `__proto__` kept (named-record.ts).
    tools: namedRecord(z.number().nonnegative()).optional(),
  });

  const baselineSchema = z.strictObject({
    label: z.string(),
    // Added within schema version 1 (docs/meaning.md, "An edited fixture"): what the reply answered; absent in older baselines.
    message: z.string().optional(),
    persona: z.string().optional(),
    reply: z.string(),
    // Added within schema version 1 (docs/meaning.md, "Variants"): absent when there are none, and in older baselines.
    variants: variantsSchema.optional(),
    route: routeSchema.nullable(),
    verdict: z.enum(['pass', 'fail']),
    // Added within schema version 1 (docs/statistics.md): absent for an item accepted from one attempt, and in older baselines.
    attempts: baselineAttemptsSchema.optional(),
    // Added within schema version 1: baselines accepted before it have none.
    judge: baselineJudgeSchema.optional(),
    // Added within schema version 1 (docs/latency.md): the accepted item's latency.
    latencyMs: z.number().nonnegative().nullable().optional(),
    // Added within schema version 1 (docs/latency.md, "Usage"): absent in older baselines.
    usage: tokenUsageSchema.nullable().optional(),
    // Added within schema version 1 (docs/traces.md, "Time"): absent without spans and in older baselines.
    time: timeSplitSchema.nullable().optional(),
    acceptedAt: z.string(),
    commit: z.string().nullable(),
  });

  /** Who wrote a simulated script's user message (docs/personas.md, "Simulated users"). */
  const turnSourceSchema = z.enum(['script', 'baseline', 'simulator']);

  /** A persona script's baseline (docs/personas.md#baselines-and-drift): the same file place, told apart by `kind`. */
  const personaBaselineSchema = z.strictObject({
    label: z.string(),
    kind: z.literal('persona'),
    transcript: z.array(
      z.strictObject({
        message: z.string().nullable(),
        reply: z.string(),
        // Added within schema version 1 (docs/meaning.md, "Variants"): this turn's; absent when none, and in older baselines.
        variants: variantsSchema.optional(),
        route: routeSchema.nullable(),
        source: turnSourceSchema.optional(),
        // Added within schema version 1 (docs/traces.md, "Time"): this turn's; absent without spans.
        time: timeSplitSchema.nullable().optional(),
      }),
    ),
    // Scripted follow-ups only: who ended the accepted conversation: the agent, the agent on the script's last message, or the script.
    // Added within schema version 1 (docs/personas.md, "Baselines and drift"): absent in older baselines.
    endedBy: z.enum(['agent', 'both', 'script']).optional(),
    // Simulated scripts only: the simulator's done reason when it ended the accepted conversation.
    // Added within schema version 1 (docs/simulated-users.md): goal, instructions and persona, absent in older baselines.
    simulation: z.strictObject({ doneReason: z.string().nullable(), goal: z.string().optional(), instructions: z.string().nullable().optional(), persona: z.string().nullable().optional() }).optional(),
    visited: z.array(z.string()),
    outcome: z.string().nullable(),
    verdict: z.enum(['pass', 'fail']),
    // Added within schema version 1 (docs/statistics.md): absent for a script accepted from one attempt, and in older baselines.
    attempts: baselineAttemptsSchema.optional(),
    // Added within schema version 1: persona baselines accepted before it have none.
    judge: z
      .strictObject({
        model: z.string().nullable(),
        // Added within schema version 1: where the judge was asked; absent in older baselines (read as judgeFingerprintSchema's).
        endpoint: z.string().transform(hideEndpointTokens).optional(),
        promptVersion: z.string(),
        transcriptHash: z.string(),
        criteria: z.array(
          z.strictObject({ criterion: z.string(), threshold: z.number().min(0).max(1), score: z.number().min(0).max(1), rationale: z.string(), members: z.array(panelMemberSchema).optional() }),
        ),
      })
      .optional(),
    latencyMs: z.number().nonnegative().nullable().optional(),
    // Added within schema version 1 (docs/latency.md, "Usage"): absent in older baselines.
    usage: tokenUsageSchema.nullable().optional(),
    acceptedAt: z.string(),
    commit: z.string().nullable(),
  });

  return {
    routeSchema,
    judgeFingerprintSchema,
    panelMemberSchema,
    tokenUsageSchema,
    baselineAttemptsSchema,
    timeSplitSchema,
    baselineSchema,
    turnSourceSchema,
    personaBaselineSchema,
  };
});

/** Stable key order, 2-space JSON, trailing newline: diffs of an acceptance stay readable. */
export function serializeBaseline(b: Baseline | PersonaBaseline): string {
  if ('kind' in b) return serializePersonaBaseline(b);
  const ordered = {
    label: b.label,
    // Only when kept (docs/meaning.md, "An edited fixture"): an older baseline keeps its bytes.
    ...(b.message !== undefined ? { message: b.message } : {}),
    ...(b.persona !== undefined ? { persona: b.persona } : {}),
    reply: b.reply,
    // Right under the reply they mean the same as; only when there are any, so a baseline without keeps its bytes.
    ...variantsOf(b),
    route: b.route === null ? null : { conversation: b.route.conversation, stage: b.route.stage },
    verdict: b.verdict,
    // Only for a repeated item: one accepted from a single attempt keeps the exact bytes it always had.
    ...(b.attempts !== undefined ? { attempts: { passed: b.attempts.passed, total: b.attempts.total } } : {}),
    // Only when present: a baseline without a judge result keeps the exact bytes it always had.
    ...(b.judge !== undefined ? { judge: serializeJudge(b.judge) } : {}),
    ...(b.latencyMs !== undefined ? { latencyMs: b.latencyMs } : {}),
    // Only when the item reported tokens, for the same reason.
    ...(b.usage != null ? { usage: { inputTokens: b.usage.inputTokens, outputTokens: b.usage.outputTokens } } : {}),
    // Only from spans (docs/traces.md, "Slower"): a baseline accepted without traces keeps its bytes.
    ...(b.time != null ? { time: serializeTime(b.time) } : {}),
    acceptedAt: b.acceptedAt,
    commit: b.commit,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** A time split in a fixed key order, tools by name. */
function serializeTime(t: TimeSplit): TimeSplit {
  return {
    modelMs: t.modelMs,
    toolMs: t.toolMs,
    otherMs: t.otherMs,
    ...(t.tools !== undefined ? { tools: Object.fromEntries(Object.keys(t.tools).sort().map((k) => [k, t.tools?.[k] ?? 0])) } : {}),
  };
}

/** `{variants}` with a copy of the list when it has any; else nothing (docs/meaning.md, "Variants"). */
function variantsOf(b: { variants?: readonly string[] | undefined }): { variants?: string[] } {
  return b.variants !== undefined && b.variants.length > 0 ? { variants: [...b.variants] } : {};
}

function serializeJudge(j: BaselineJudge): BaselineJudge {
  return {
    score: j.score,
    rationale: j.rationale,
    fingerprint: {
      model: j.fingerprint.model,
      ...(j.fingerprint.endpoint !== undefined ? { endpoint: j.fingerprint.endpoint } : {}),
      promptVersion: j.fingerprint.promptVersion,
      criteria: j.fingerprint.criteria.map((c) => ({ criterion: c.criterion, threshold: c.threshold })),
    },
    ...(j.members !== undefined ? { members: j.members.map(serializeMember) } : {}),
  };
}

function serializeMember(m: PanelMember): PanelMember {
  return { label: m.label, score: m.score, rationale: m.rationale, reason: m.reason };
}

/** A persona baseline in the same stable form: one turn per entry of `transcript`. */
export function serializePersonaBaseline(b: PersonaBaseline): string {
  const ordered = {
    label: b.label,
    kind: b.kind,
    transcript: b.transcript.map((t) => ({
      message: t.message,
      reply: t.reply,
      ...variantsOf(t),
      route: t.route === null ? null : { conversation: t.route.conversation, stage: t.route.stage },
      // Only when present: a scripted persona's baseline keeps the exact bytes it always had.
      ...(t.source !== undefined ? { source: t.source } : {}),
      ...(t.time != null ? { time: serializeTime(t.time) } : {}),
    })),
    ...(b.endedBy !== undefined ? { endedBy: b.endedBy } : {}),
    ...(b.simulation !== undefined
      ? { simulation: { doneReason: b.simulation.doneReason, ...(b.simulation.goal !== undefined ? { goal: b.simulation.goal, instructions: b.simulation.instructions ?? null } : {}), ...(b.simulation.persona !== undefined ? { persona: b.simulation.persona } : {}) } }
      : {}),
    visited: b.visited,
    outcome: b.outcome,
    verdict: b.verdict,
    ...(b.attempts !== undefined ? { attempts: { passed: b.attempts.passed, total: b.attempts.total } } : {}),
    ...(b.judge !== undefined
      ? {
          judge: {
            model: b.judge.model,
            ...(b.judge.endpoint !== undefined ? { endpoint: b.judge.endpoint } : {}),
            promptVersion: b.judge.promptVersion,
            transcriptHash: b.judge.transcriptHash,
            criteria: b.judge.criteria.map((c) => ({
              criterion: c.criterion,
              threshold: c.threshold,
              score: c.score,
              rationale: c.rationale,
              ...(c.members !== undefined ? { members: c.members.map(serializeMember) } : {}),
            })),
          },
        }
      : {}),
    ...(b.latencyMs !== undefined ? { latencyMs: b.latencyMs } : {}),
    ...(b.usage != null ? { usage: { inputTokens: b.usage.inputTokens, outputTokens: b.usage.outputTokens } } : {}),
    acceptedAt: b.acceptedAt,
    commit: b.commit,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export interface BaselineFileResult {
  /** A fixture's baseline (null when the file is a persona baseline or has errors). */
  baseline: Baseline | null;
  /** A persona script's baseline (`kind: "persona"`). */
  persona?: PersonaBaseline | null;
  errors: ConfigIssue[];
}

/**
 * A damaged baseline is not a stale one: it still holds the accepted reply. The fix keeps it
 * (git has the accepted version, once committed); deleting it would drop the reply every run
 * compares against. The loader runs no git, so the fix says when the command applies: `accept`
 * writes a baseline uncommitted, and git checkout of a file git never had only errs.
 */
function rewriteFix(file: string, first = 'fix it by hand'): string {
  // The command as it can be pasted: the file's own path, quoted for the shell when it needs it.
  const path = shownShellWord(file);
  // After a line shown as it should read, on a line of its own, not on the end of that line.
  return `${first}${first.includes('\n') ? '\n  ' : '; '}committed before the edit? \`git checkout -- ${path}\` brings back the committed version`;
}

/**
 * The verdict a hand edit meant (`"passed"`, `"Pass"`, `"FAILED"`, a typo as `"pas"`), written as
 * acceptance writes it; null for any other value (`"not_evaluated"` is not one a baseline can have).
 */
function meantVerdict(verdict: unknown): 'pass' | 'fail' | null {
  if (typeof verdict !== 'string') return null;
  const word = verdict.trim().toLowerCase();
  if (['pass', 'passed', 'passing', 'ok'].includes(word)) return 'pass';
  if (['fail', 'failed', 'failing'].includes(word)) return 'fail';
  // A typo (`pas`, `fial`, `faill`): the verdict it is nearest, as a misspelt key's "did you mean" finds it.
  const near = nearestName(word, ['pass', 'fail']);
  return near === 'pass' || near === 'fail' ? near : null;
}

/** Checks the text of one baseline file; `file` is its display path, `fileLabel` its name without `.json`. */
export function checkBaselineFile(file: string, fileLabel: string, written: string): BaselineFileResult {
  // A byte-order mark (an editor on Windows saves one) is no part of the JSON, as in a YAML file
  // (suite/yaml/read.ts): positions are counted as an editor shows them (docs/fixtures.md, "Baselines").
  const text = written.charCodeAt(0) === 0xfeff ? written.slice(1) : written;
  const errors: ConfigIssue[] = [];
  // JSON is (nearly) YAML: parsing it as YAML too gives node positions for the schema issues,
  // only when there is an issue to place.
  const src: SourceFile = documentSource(file, text, { uniqueKeys: false });

  if (!isValidLabel(fileLabel)) {
    errors.push({
      file,
      line: null,
      column: null,
      message: `baseline file name ${quote(`${fileLabel}.json`)} is not a label: a label is ${LABEL_RULE}`,
      fix: 'baseline files are named <label>.json by acceptance: rename it to the label of its fixture or persona script, or move it out of the baselines folder',
    });
    return { baseline: null, errors };
  }

  // Before anything that recurses, the `yaml` document that places errors among them; placed by
  // the text alone (docs/fixtures.md, "Baselines").
  const deep = deepJsonOffset(text, MAX_JSON_DEPTH);
  if (deep !== null) {
    errors.push({
      file,
      ...lineColumnAt(text, deep),
      message: `baseline nests deeper than ${MAX_JSON_DEPTH} levels of lists and objects here, which acceptance never writes`,
      fix: rewriteFix(file),
    });
    return { baseline: null, errors };
  }

  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    // An empty file, or one cut short, said so at where it stops, not in the parser's words for
    // the token it expected next ("Expected double-quoted property name", at a line past the text).
    if (text.trim() === '') {
      errors.push({ file, line: 1, column: 1, message: 'invalid JSON: the file is empty', fix: rewriteFix(file, `an empty file holds no baseline: delete it and accept ${shownJson(fileLabel)} again`) });
      return { baseline: null, errors };
    }
    // A merge conflict left in it (a baseline accepted on two branches): said as that, with the lines to keep either side.
    const conflicts = mergeConflicts(file, text, 'JSON');
    if (conflicts.length > 0) return { baseline: null, errors: conflicts };
    const cut = cutShortAt(text, message);
    if (cut !== null) {
      errors.push({ file, ...lineColumnAt(text, cut), message: 'invalid JSON: the file ends here, with a string, list or object not closed (cut short, or a closing quote or bracket left out)', fix: rewriteFix(file, 'complete it by hand') });
      return { baseline: null, errors };
    }
    // A comma after the last entry or between two left out, a string's closing quote left out: said
    // where to look, in the words of whoever edited it, with the line as it should read.
    const placed = handEditError(text, message);
    if (placed !== null) {
      errors.push({ file, line: placed.line, column: placed.column, message: `invalid JSON: ${placed.words}`, fix: rewriteFix(file, placed.fix) });
      return { baseline: null, errors };
    }
    const pos = jsonErrorPosition(src, message, text);
    errors.push({ file, ...pos, message: `invalid JSON: ${jsonErrorWords(message)}`, fix: rewriteFix(file) });
    return { baseline: null, errors };
  }

  // A label that is not its file name is said with the file's other problems, not a run later.
  const writtenLabel = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).label : undefined;
  const mismatch: ConfigIssue | null =
    typeof writtenLabel === 'string' && writtenLabel !== fileLabel
      ? {
          file,
          ...src.valueAt(['label']),
          message: `baseline label ${quote(writtenLabel)} does not match its file name ${quote(`${fileLabel}.json`)}`,
          fix: `rename the file to ${writtenLabel}.json or set "label": ${shownJson(fileLabel)}`,
        }
      : null;
  if (mismatch !== null) errors.push(mismatch);

  // A persona baseline says so (`kind: "persona"`); anything else is read as a fixture's. A
  // misspelt `kind` (`knid: "persona"`) still says so: read as a fixture's, the one misspelling
  // would also be every persona key unknown and reply and route missing.
  const isPersona = data !== null && typeof data === 'object' && !Array.isArray(data) && saysPersona(data as Record<string, unknown>);
  const { baselineSchema, personaBaselineSchema } = baselineSchemas();
  const schema: typeof baselineSchema | typeof personaBaselineSchema = isPersona ? personaBaselineSchema : baselineSchema;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const rest: typeof parsed.error.issues = [];
    for (const issue of parsed.error.issues) {
      if (issue.path.length === 1 && issue.path[0] === 'verdict' && data && typeof data === 'object') {
        const verdict = (data as Record<string, unknown>).verdict;
        if (verdict !== undefined) {
          const pos = src.valueAt(['verdict']);
          errors.push({
            file,
            ...pos,
            message: `verdict ${typeof verdict === 'string' ? quote(verdict) : shownJson(verdict)} cannot be a baseline: only pass or fail is ever accepted`,
            fix: rewriteFix(file, meantVerdict(verdict) === null ? undefined : `write "verdict": "${meantVerdict(verdict) as string}"`),
          });
          continue;
        }
      }
      rest.push(issue);
    }
    // Together, so that a misspelt key and the required key it stands for are said once.
    const translated = translateZodIssues({ src, schema, data, base: [], prefix: isPersona ? 'persona baseline: ' : 'baseline: ' }, rest);
    // A fix that ends with the line as it should read keeps that line whole: the alternative goes
    // on a line of its own ("reads\n    \"reply\": \"Hello\",; or" read as part of the JSON).
    errors.push(...translated.map((t) => ({ ...t, fix: t.fix.includes('\n') ? `${t.fix}\n  or ${rewriteFix(file)}` : `${t.fix}; or ${rewriteFix(file)}` })));
    return { baseline: null, errors };
  }

  if (mismatch !== null) return { baseline: null, errors };
  const attempts = attemptsContradiction(file, src, parsed.data);
  if (attempts !== null) return { baseline: null, errors: [...errors, attempts] };
  const variants = tooManyVariants(file, src, parsed.data);
  if (variants.length > 0) return { baseline: null, errors: [...errors, ...variants] };
  if ('kind' in parsed.data) {
    // A criterion kept under its threshold failed the script: a passing baseline with one was edited by hand.
    const criteria = parsed.data.judge?.criteria ?? [];
    const failed = criteria.findIndex((c) => keptJudgeContradicts(c, c.threshold, parsed.data.verdict));
    if (failed >= 0) {
      const c = criteria[failed] as (typeof criteria)[number];
      const pos = src.valueAt(['judge', 'criteria', failed, 'score']);
      errors.push({
        file,
        ...pos,
        message:
          c.members !== undefined
            ? `persona baseline: judge.criteria[${failed}].members (a panel) do not pass by majority at threshold ${c.threshold}, which contradicts the accepted verdict "pass"`
            : `persona baseline: judge.criteria[${failed}].score ${c.score} < threshold ${c.threshold} contradicts the accepted verdict "pass"`,
        fix: `remove the judge block (the next run calls the judge), or ${rewriteFix(file)}`,
      });
      return { baseline: null, errors };
    }
    return { baseline: null, persona: parsed.data, errors };
  }
  const judge = parsed.data.judge;
  if (judge !== undefined && judge.fingerprint.criteria.length !== 1) {
    const pos = src.valueAt(['judge', 'fingerprint', 'criteria']);
    errors.push({
      file,
      ...pos,
      message: `baseline: judge.fingerprint.criteria lists ${judge.fingerprint.criteria.length} criteria; a fixture is judged against exactly one`,
      fix: `remove the judge block (the next run calls the judge), or ${rewriteFix(file)}`,
    });
    return { baseline: null, errors };
  }
  // A kept judge result that did not pass beside an accepted pass was edited by hand: a list passes only when
  // every check passes. A passing one beside a fail is a list whose other check failed (keptJudgeContradicts).
  const threshold = judge?.fingerprint.criteria[0]?.threshold;
  if (judge !== undefined && threshold !== undefined && keptJudgeContradicts(judge, threshold, parsed.data.verdict)) {
    // A panel's result: the verdict is its members' majority, not the median against the threshold.
    const v = judge.members !== undefined ? panelVerdict(judge.members, threshold) : null;
    errors.push({
      file,
      ...src.valueAt(v !== null ? ['judge', 'members'] : ['judge', 'score']),
      message:
        v !== null
          ? `baseline: judge.members (a panel) give ${v.verdict === 'fail' ? 'fail' : 'no verdict'} (${v.passed} of ${(judge.members ?? []).length} pass at threshold ${threshold}), which contradicts the accepted verdict ${quote(parsed.data.verdict)}`
          : `baseline: judge.score ${judge.score} < threshold ${threshold} contradicts the accepted verdict ${quote(parsed.data.verdict)}`,
      fix: `remove the judge block (the next run calls the judge), or ${rewriteFix(file)}`,
    });
    return { baseline: null, errors };
  }
  return { baseline: parsed.data, errors };
}

/** A pass from no passing attempt, or a fail from attempts that all passed (docs/statistics.md, "A baseline's attempts"). */
function attemptsContradict(verdict: 'pass' | 'fail', a: { passed: number; total: number }): boolean {
  return (verdict === 'pass' && a.passed === 0) || (verdict === 'fail' && a.passed === a.total);
}

/**
 * Whether a baseline's own tally or kept judge result does not stand behind its verdict: what the loader
 * refuses as edited by hand (checkBaselineFile). Acceptance, which writes neither so, says of a record
 * that gives one that it contradicts itself (src/accept/screen.ts).
 */
export function verdictContradicted(b: Baseline | PersonaBaseline): boolean {
  if (b.attempts !== undefined && (b.attempts.passed > b.attempts.total || attemptsContradict(b.verdict, b.attempts))) return true;
  if ('kind' in b) return (b.judge?.criteria ?? []).some((c) => keptJudgeContradicts(c, c.threshold, b.verdict));
  const threshold = b.judge?.fingerprint.criteria[0]?.threshold;
  return b.judge !== undefined && threshold !== undefined && keptJudgeContradicts(b.judge, threshold, b.verdict);
}

/**
 * Attempts that cannot stand behind the accepted verdict (docs/statistics.md): more passes than attempts, a pass
 * from no passing attempt, or a fail from attempts that all passed. Such a file was edited by hand.
 */
function attemptsContradiction(file: string, src: SourceFile, data: { verdict: 'pass' | 'fail'; attempts?: { passed: number; total: number } }): ConfigIssue | null {
  const a = data.attempts;
  if (a === undefined) return null;
  const fix = `remove the attempts block (the baseline then counts as one attempt), or ${rewriteFix(file)}`;
  const prefix = 'kind' in data ? 'persona baseline' : 'baseline';
  if (a.passed > a.total) {
    return { file, ...src.valueAt(['attempts', 'passed']), message: `${prefix}: attempts.passed ${a.passed} is more than attempts.total ${a.total}`, fix };
  }
  if (attemptsContradict(data.verdict, a)) {
    return {
      file,
      ...src.valueAt(['attempts', 'passed']),
      message: `${prefix}: ${a.passed} of ${a.total} attempts passed, which contradicts the accepted verdict ${quote(data.verdict)}`,
      fix,
    };
  }
  return null;
}

/**
 * Variants lists longer than acceptance ever writes (docs/meaning.md, "Variants"): the fixture's, or each script
 * turn's, each said at its line. Such a list was edited by hand.
 */
function tooManyVariants(file: string, src: SourceFile, data: { variants?: string[] } | { kind: 'persona'; transcript: { variants?: string[] }[] }): ConfigIssue[] {
  const lists: { path: (string | number)[]; name: string; variants: string[] }[] = [];
  if ('kind' in data) {
    for (const [i, t] of data.transcript.entries()) if (t.variants !== undefined) lists.push({ path: ['transcript', i, 'variants'], name: `persona baseline: transcript[${i}].variants`, variants: t.variants });
  } else if (data.variants !== undefined) lists.push({ path: ['variants'], name: 'baseline: variants', variants: data.variants });
  return lists
    .filter((l) => l.variants.length > MAX_VARIANTS)
    .map((l) => ({
      file,
      ...src.valueAt(l.path),
      message: `${l.name} lists ${l.variants.length} replies; a baseline keeps at most ${MAX_VARIANTS} (the newest first)`,
      fix: `remove the last ${l.variants.length - MAX_VARIANTS} (the oldest), or ${rewriteFix(file)}`,
    }));
}

function jsonErrorPosition(src: SourceFile, message: string, text: string): Position {
  const at = (offset: number): Position => src.offsetAt(Math.min(offset, text.length));
  const offset = jsonErrorOffset(text, message);
  if (offset !== null) return at(offset);
  const yamlError = src.syntaxErrors()[0];
  if (yamlError) return at(yamlError.offset);
  if (/end of (JSON )?input/i.test(message)) return at(text.length);
  // A baseline is an object: text that does not start like one is wrong at its first character.
  const first = /\S/.exec(text);
  if (first && first[0] !== '{') return at(first.index);
  return { line: null, column: null };
}

/** `kind: "persona"`, or a key that stands for `kind` (the one "did you mean" names) with that value. */
function saysPersona(data: Record<string, unknown>): boolean {
  if ('kind' in data) return data.kind === 'persona';
  const allowed = Object.keys(baselineSchemas().personaBaselineSchema.shape);
  return Object.entries(data).some(([key, value]) => value === 'persona' && !allowed.includes(key) && suggest(key, allowed) === 'kind');
}
