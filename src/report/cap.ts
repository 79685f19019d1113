// The refusal shown instead of a report when a run is above the cost cap and not confirmed:
// nothing was replayed, nothing was spent; here is the estimate and exactly how to confirm. One
// wording, two forms: the PR comment (markdown) and the terminal (plain text).

import type { Estimate } from '../types.js';
import type { ReportContext } from './context.js';
import { clip, codeSpan, terminalLine } from './escape.js';
import { markerLine, metaLine } from './metadata.js';
import { suiteLine } from './blocks.js';
import { formatUsdPair } from './money.js';
import { plural } from './model.js';
import { NEW_CONFIG_NAME } from '../suite/config-names.js';
import { listWords } from '../words.js';

/**
 * What the estimate covers: "12 fixtures, 3 persona scripts, 4 judge calls, 8 meaning calls at most
 * and 16 simulator calls". The meaning calls are priced in the estimate (docs/meaning.md, "Costs"),
 * so they are named: without them the figures did not add up to the estimate. With `agentTurns`,
 * the agent turns priced lead, the items after them ("39 agent turns (3 fixtures, 2 persona
 * scripts), 27 judge calls"): every attempt's and welcome turn's, which the items alone do not say
 * (docs/semantics.md, "Cost").
 */
function capScope(fixtureCount: number, judgeCalls: number, personaCount: number, simulatorCalls: number, meaningCalls: number, agentTurns?: number): string {
  const items = [plural(fixtureCount, 'fixture', 'fixtures')];
  if (personaCount > 0) items.push(plural(personaCount, 'persona script', 'persona scripts'));
  const parts = agentTurns === undefined ? items : [`${plural(agentTurns, 'agent turn', 'agent turns')} (${items.join(', ')})`];
  if (judgeCalls > 0) parts.push(plural(judgeCalls, 'judge call', 'judge calls'));
  if (meaningCalls > 0) parts.push(`${plural(meaningCalls, 'meaning call', 'meaning calls')} at most`);
  // At most maxTurns calls per simulated script (docs/simulated-users.md).
  if (simulatorCalls > 0) parts.push(plural(simulatorCalls, 'simulator call', 'simulator calls'));
  return listWords(parts);
}

/**
 * With adaptive attempts the estimate is the high end of a range (docs/statistics.md, "The
 * estimate"): said so, with the low end, so that a refusal's figure is not read as the run's cost.
 */
function rangeNote(estimate: Estimate): string {
  const a = estimate.adaptive;
  if (a === undefined) return '';
  const [low] = formatUsdPair(a.lowUsd, estimate.capUsd);
  return ` (the most it can cost: ${plural(a.items, 'item', 'items')} may take extra attempts up to repeat.max; ${low} without any)`;
}

/**
 * Where the cap that refused the run is set, so that the comment names the setting that raises it:
 * the suite folder's config file (config.yml, or config.yaml: docs/configuration.md), or the
 * Action's `cost-cap` input, which overrides it (docs/action.md, "Inputs").
 */
export interface CapSource {
  /** The suite folder (the `dir` input), `.agent-replay` by default. */
  dir?: string;
  /** The suite's config file name (Suite.configName): config.yml, or config.yaml; absent: config.yml, the one to create. */
  file?: string;
  /** True when the `cost-cap` input set the cap: raising cost.capUsd would change nothing. */
  fromInput?: boolean;
}

/** The config file whose cost.capUsd raises the cap, as the user reaches it (`.agent-replay/config.yaml`); `fit` shortens the folder. */
function capFile(source: CapSource, fit: (dir: string) => string = (dir) => dir): string {
  return `${fit(source.dir ?? '.agent-replay')}/${source.file ?? NEW_CONFIG_NAME}`;
}

/** `personaCount`: persona scripts in the run besides the fixtures (each script is an item: docs/personas.md). */
export function renderCapRefusal(estimate: Estimate, fixtureCount: number, judgeCalls: number, ctx: ReportContext, personaCount = 0, simulatorCalls = 0, source: CapSource = {}, agentTurns?: number): string {
  const where = source.fromInput === true ? 'the `cost-cap` input in the workflow file' : `${codeSpan('cost.capUsd')} in ${codeSpan(capFile(source, (dir) => clip(dir, 200)))}`;
  const label = codeSpan(clip(ctx.confirmLabel, 100));
  const [estimated, cap] = formatUsdPair(estimate.usd, estimate.capUsd);
  return [
    `${markerLine(ctx.marker)}\n${metaLine(ctx)}`,
    ...(suiteLine(ctx) === null ? [] : [suiteLine(ctx) as string]),
    '### ⏸️ Not run: the estimated cost is above the cap',
    `**≈ ${estimated} estimated** for ${capScope(fixtureCount, judgeCalls, personaCount, simulatorCalls, estimate.meaningCalls ?? 0, agentTurns)}; ` +
      `the cap is **${cap}**${rangeNote(estimate)}. Nothing was replayed and nothing was spent.`,
    'To run it anyway, confirm the cost in one of these ways:',
    [
      `- apply the ${label} label to this pull request;`,
      '- set the action input `confirm-cost: true`;',
      '- run the CLI with `--confirm-cost`.',
    ].join('\n'),
    `Or raise the cap (${where}). ` +
      'The estimate is a flat guess per call made before anything runs, not a bill.',
  ].join('\n\n') + '\n';
}

/** The terminal's refusal: plain text (the PR comment's markdown is for GitHub, not a terminal); `source` the suite folder and its config file. */
export function renderCapRefusalText(estimate: Estimate, fixtureCount: number, judgeCalls: number, source: CapSource, personaCount = 0, simulatorCalls = 0, agentTurns?: number): string {
  const [est, cap] = formatUsdPair(estimate.usd, estimate.capUsd);
  return (
    `not run: the estimated cost ${est} for ${capScope(fixtureCount, judgeCalls, personaCount, simulatorCalls, estimate.meaningCalls ?? 0, agentTurns)} is above the cost cap ${cap}${rangeNote(estimate)}.\n` +
    'Nothing was sent to the agent and nothing was spent. The estimate is a flat guess per call, not a bill.\n' +
    // The suite folder as given: a control character in its name shown as an escape (docs/security.md, "Agent text is data").
    `To run it anyway, rerun with --confirm-cost, or raise cost.capUsd in ${terminalLine(capFile(source))}.\n`
  );
}
