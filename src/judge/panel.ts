// A panel of judges (docs/judges.md, "Panels"): every member judges each criterion, at once and
// each under its own client's concurrency and retries; the answer carries every member's score and
// rationale (or its reason), and the verdict is decided from them, with the threshold, by
// `judgeOutcome` (src/assertions/judge.ts): a strict majority of members passing.
//
// The panel's answer is usable when a majority of its members gave a usable score (a majority of
// members, not of the answers); its score is then the median of the usable scores.

import { panelMembers, type JudgeConfig } from '../config.js';
import type { Judge, JudgeResult, JudgeStructuredOutput, PanelMember, Turn } from '../types.js';
import { median, memberLabel, panelMajority } from '../assertions/judge.js';
import { createJudge, type JudgeDeps } from './client.js';
import { urlEndpoint } from '../endpoint.js';

/** A member's request agent-replay could not make (src/judge/client.ts, `ask` below): nothing was sent. */
const CALL_FAILED = 'judge call failed: ';

/** How the members without a usable score failed: not reached, answered without one, or a request agent-replay could not make. */
interface Failures {
  unreachable: number;
  unusable: number;
  ours: number;
}

function failuresOf(results: readonly JudgeResult[]): Failures {
  const failed = results.filter((r): r is Extract<JudgeResult, { ok: false }> => !r.ok);
  const ours = failed.filter((r) => r.reason.startsWith(CALL_FAILED)).length;
  const unusable = failed.filter((r) => !r.reason.startsWith(CALL_FAILED) && r.answered === true).length;
  return { unreachable: failed.length - ours - unusable, unusable, ours };
}

/**
 * "3 of 5" words for a reason; the members' own reasons follow, each named. The reason's kind is
 * the members': "judge call failed: " when every member without a usable score hit a request
 * agent-replay could not make (the panel is not then "unreachable", src/assertions/judge.ts),
 * answered (the caller says so) when none was unreachable and one answered, else unreachable
 * (docs/judges.md, "Panels"). When they failed in more than one way, the members are counted by
 * kind after the majority needed (`(2 usable needed; 1 unreachable, 1 gave no usable answer)`,
 * `(...; 1 unreachable, 1 judge call failed)`), so that the causes know how many were not reached
 * and give each kind's fix once (src/evaluate/causes.ts, panelCounts), in a run and in calibrate.
 */
function unusableReason(members: readonly PanelMember[], failures: Failures): string {
  const failed = members.filter((m) => m.score === null);
  const needed = panelMajority(members.length);
  // A label that holds ": " or "; " is quoted (memberLabel): the causes read each member's reason from where its label ends.
  const reasons = failed.map((m) => `${memberLabel(m.label)}: ${m.reason ?? 'no usable score'}`).join('; ');
  const kinds = [
    [failures.unreachable, 'unreachable'],
    [failures.unusable, 'gave no usable answer'],
    [failures.ours, CALL_FAILED.replace(/: $/, '')],
  ].filter(([n]) => (n as number) > 0);
  const counts = kinds.length > 1 ? `; ${kinds.map(([n, words]) => `${n} ${words}`).join(', ')}` : '';
  const ours = failures.unreachable === 0 && failures.unusable === 0;
  return `${ours ? CALL_FAILED : ''}panel: ${failed.length} of ${members.length} members gave no usable score (${needed} usable needed${counts}): ${reasons}`;
}

/**
 * How the reason of a member of another provider than the judge's begins (src/evaluate/causes.ts,
 * MEMBER_LABEL): it never takes judge.apiKey, judge.model or judge.baseUrl (panelMemberConfig), so
 * its fix names its settings in judge.panel alone (docs/judges.md, "Panels").
 */
export const OTHER_PROVIDER = '(another provider) ';

/** The panel's answer from its members' answers, in the panel's order; `others[i]`: member i is of another provider than the judge's. */
function combinePanel(labels: readonly string[], results: readonly JudgeResult[], others: readonly boolean[]): JudgeResult {
  const members: PanelMember[] = results.map((r, i) =>
    r.ok
      ? { label: labels[i] ?? `member ${i + 1}`, score: r.score, rationale: r.rationale, reason: null }
      : { label: labels[i] ?? `member ${i + 1}`, score: null, rationale: null, reason: others[i] === true ? `${OTHER_PROVIDER}${r.reason}` : r.reason },
  );
  const usable = members.filter((m): m is PanelMember & { score: number; rationale: string } => m.score !== null);
  if (usable.length < panelMajority(members.length)) {
    // Answered when no member without a score was unreachable and one answered (declined, or gave
    // none usable); the others' requests were ones agent-replay could not make.
    const failures = failuresOf(results);
    const answered = failures.unreachable === 0 && failures.unusable > 0;
    return { ok: false, reason: unusableReason(members, failures), members, ...(answered ? { answered: true } : {}) };
  }
  const score = median(usable.map((m) => m.score));
  // The rationale of the member closest to the median (the first on a tie): what a reader of the score alone sees.
  const closest = usable.reduce((best, m) => (Math.abs(m.score - score) < Math.abs(best.score - score) ? m : best));
  return { ok: true, score, rationale: closest.rationale, members };
}

/** A member's answer; a member that throws gave no usable score (the others still count). */
async function ask(call: () => Promise<JudgeResult>): Promise<JudgeResult> {
  try {
    return await call();
  } catch (err) {
    return { ok: false, reason: `${CALL_FAILED}${err instanceof Error ? err.message : String(err)}` };
  }
}

/**
 * A Judge made of `members` (3 or 5, as config.yml allows). Its name lists the members' names.
 * `others[i]`: member i is of another provider than the judge's (its reason says so, OTHER_PROVIDER).
 * `structuredOutput` is there when some member has one: structured while every such member still
 * asks through the schema mechanism, else the reasons of those that fell back, each named.
 */
export function createPanelJudge(members: readonly Judge[], others: readonly boolean[] = []): Judge {
  const labels = members.map((m) => m.name);
  const structuredMembers = members.filter((m) => m.structuredOutput !== undefined);
  const structuredOutput = (): JudgeStructuredOutput => {
    const fell = structuredMembers.flatMap((m) => {
      const mode = m.structuredOutput?.();
      return mode !== undefined && !mode.structured ? [`${m.name}: ${mode.reason}`] : [];
    });
    return fell.length === 0 ? { structured: true } : { structured: false, reason: fell.join('; ') };
  };
  return {
    name: `panel of ${members.length}: ${labels.join(', ')}`,
    score: async (criterion: string, reply: string) => combinePanel(labels, await Promise.all(members.map((m) => ask(() => m.score(criterion, reply)))), others),
    scoreTranscript: async (criterion: string, turns: readonly Turn[]) =>
      combinePanel(labels, await Promise.all(members.map((m) => ask(() => m.scoreTranscript(criterion, turns)))), others),
    ...(structuredMembers.length > 0 ? { structuredOutput } : {}),
    async close() {
      await Promise.allSettled(members.map((m) => m.close()));
    },
  };
}

/**
 * The judge config.yml asks for: its panel when it has one (each member its own client, with its
 * own concurrency, retries and structured-output fallback), else the judge alone. `each` wraps
 * every client that makes calls (the engine counts spend there: one call per member).
 */
export function createConfiguredJudge(config: JudgeConfig, deps: JudgeDeps = {}, each: (judge: Judge) => Judge = (j) => j): Judge {
  const members = panelMembers(config);
  if (members === null) return each(createJudge(config, deps));
  // Each member has its own limiter (its own `concurrency`); the deps' shared one is for a single judge.
  const { limiter: _shared, ...memberDeps } = deps;
  // A member of another provider than the judge's never takes the judge's key, model or address (panelMemberConfig): its reasons say so, and name its key alone.
  const others = members.map((m) => m.provider !== config.provider);
  return createPanelJudge(
    members.map((m, i) => each(createJudge(m, memberDeps, others[i] === true ? 'own' : 'inherited'))),
    others,
  );
}

/**
 * The judge as its fingerprint names it (docs/evaluations.md, "What defined each item"):
 * "provider/model", or for a panel every member's "provider/model" in order, so that changing,
 * adding or reordering a member changes the fingerprint and a kept result is not reused.
 */
export function judgeModelOf(config: JudgeConfig): string {
  const members = panelMembers(config);
  if (members === null) return `${config.provider}/${config.model}`;
  return `panel: ${members.map((m) => `${m.provider}/${m.model}`).join(', ')}`;
}

/**
 * Where the judge is asked, as its fingerprint, the run's meaning judge and calibration.json keep
 * it (docs/evaluations.md, "What defined each item"): its base address without credentials, query,
 * fragment, trailing "/" or a path segment that looks like a token (urlEndpoint), or for a panel
 * every member's in order, joined by ", ", so that the same model name at another address is
 * another judge (a kept result is not reused for it). `redact` hides the run's secrets from it.
 */
export function judgeEndpointOf(config: JudgeConfig, redact: (text: string) => string = (t) => t): string {
  const members = panelMembers(config) ?? [config];
  return members.map((m) => urlEndpoint(m.baseUrl, redact, { base: true }) ?? '').join(', ');
}

/** Judge calls one criterion costs: one per member of a panel, else one. */
export function callsPerCriterion(config: JudgeConfig | null): number {
  return config === null ? 1 : (panelMembers(config)?.length ?? 1);
}

/** The judge's name as shown before any client exists: a panel lists its members. */
export function configuredJudgeName(config: JudgeConfig): string {
  const members = panelMembers(config);
  const one = (j: JudgeConfig): string => j.label ?? `${j.provider} ${j.model}`;
  return members === null ? one(config) : `panel of ${members.length}: ${members.map(one).join(', ')}`;
}
