// Compact text for the CLI: headline, tallies, facts, then the fixtures that need attention,
// one per line with their detail, then every persona script, one per line with how many checks
// passed, and under it each check that failed or did not run. Agent text is flattened to one
// line with controls (including ANSI escapes) removed, so it cannot move the cursor or recolour
// the terminal.

import type { Check, FixtureRecord, PersonaRecord, RunRecord } from '../types.js';
import { clip, oneLine } from './escape.js';
import {
  ATTENTION_ORDER,
  SECTION_WORDS,
  buildModel,
  estimateText,
  headlineParts,
  headlineText,
  flakyText,
  isPersona,
  personasOf,
  sectionOf,
  shortSha,
  statusWords,
  type SectionKey,
} from './model.js';
import { checkSubject, checksCount, CHECK_NAMES } from './persona.js';
import { spendText } from './spend.js';
import { agreementReport, formatAgreement, incompleteText, type AgreementGroup } from '../evaluate/index.js';
import { agreementBasis } from './evaluations.js';

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
  grey: '\u001b[90m',
} as const;

type Colour = keyof typeof ANSI;

const SECTION_STYLE: Record<SectionKey, { mark: string; colour: Colour }> = {
  newly_failing: { mark: '✗', colour: 'red' },
  still_failing: { mark: '✗', colour: 'red' },
  changed: { mark: '~', colour: 'yellow' },
  not_evaluated: { mark: '○', colour: 'grey' },
  errored: { mark: '!', colour: 'grey' },
  new: { mark: '+', colour: 'cyan' },
  unchanged: { mark: '=', colour: 'grey' },
};

export function renderTerminal(run: RunRecord, opts: { color: boolean; width?: number }): string {
  const paint = (colour: Colour, text: string): string => (opts.color ? `${ANSI[colour]}${text}${ANSI.reset}` : text);
  const fit = (text: string): string => (opts.width && opts.width > 0 ? clip(text, opts.width) : text);
  const model = buildModel(run);
  const h = headlineParts(model);
  const t = model.tallies;
  const lines: string[] = [];

  const headColour: Colour = model.sections.newly_failing.length > 0 ? 'red' : h.icon === '✅' ? 'green' : 'grey';
  lines.push(paint('bold', paint(headColour, fit(`agent-replay: ${headlineText(model)}`))));
  if (run.incomplete != null) lines.push(paint('yellow', fit(oneLine(incompleteText(run.incomplete)))));
  const flaky = flakyText(model);
  if (flaky !== null) lines.push(paint('yellow', fit(flaky)));
  if (run.interrupted) {
    lines.push(paint('yellow', fit(`interrupted: only the ${model.total} ${model.total === 1 ? 'fixture' : 'fixtures'} that finished are counted; the others were not replayed`)));
  }

  const tallies: [Colour, string][] = [['green', `passed ${t.passed}`]];
  if (t.failed > 0) tallies.push(['red', `failed ${t.failed}`]);
  if (t.notEvaluated > 0) tallies.push(['grey', `not evaluated ${t.notEvaluated} (not a failure)`]);
  if (t.errored > 0) tallies.push(['grey', `errored ${t.errored} (not a failure)`]);
  const talliesPlain = `verdicts: ${tallies.map(([, text]) => text).join('  ')}`;
  lines.push(
    fit(talliesPlain) === talliesPlain ? `verdicts: ${tallies.map(([c, text]) => paint(c, text)).join('  ')}` : fit(talliesPlain),
  );

  lines.push(...agreementLines(run, fit));

  const facts = [estimateText(run.estimate)];
  const spent = spendText(run.spend);
  if (spent !== null) facts.push(spent);
  if (run.agent.host) facts.push(`agent ${oneLine(run.agent.host)}`);
  const sha = shortSha(run.commit);
  if (sha) facts.push(`commit ${oneLine(sha)}`);
  if (run.judge.name) facts.push(`judge: ${oneLine(run.judge.name)}`);
  lines.push(paint('grey', fit(facts.join(' · '))));

  // Fixtures by section; persona scripts in a part of their own below (their section is their mark).
  for (const key of ATTENTION_ORDER) {
    const items = model.sections[key].filter((f): f is FixtureRecord => !isPersona(f));
    if (items.length === 0) continue;
    const style = SECTION_STYLE[key];
    lines.push('', paint('bold', `${SECTION_WORDS[key].title} (${items.length})${SECTION_WORDS[key].suffix}`));
    for (const f of items.slice(0, TERMINAL_ITEMS)) lines.push(itemLine(f, style, paint, fit));
    if (items.length > TERMINAL_ITEMS) lines.push(paint('grey', fit(moreLine(items.length - TERMINAL_ITEMS))));
  }
  const personas = personasOf(run);
  if (personas.length > 0) {
    lines.push('', paint('bold', `Persona scripts (${personas.length})`));
    for (const p of personas.slice(0, TERMINAL_ITEMS)) lines.push(...personaLines(p, paint, fit));
    if (personas.length > TERMINAL_ITEMS) lines.push(paint('grey', fit(moreLine(personas.length - TERMINAL_ITEMS))));
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Items listed per section in the terminal: a screen's worth a reader can scan. The rest are
 * counted in one line; results.json, --markdown and --html list every item.
 */
export const TERMINAL_ITEMS = 50;

function moreLine(n: number): string {
  return `  ... and ${n.toLocaleString('en-US')} more (every item is in results.json; --markdown and --html render them all)`;
}

/** "by file: a.yml 100% · b.yml 50%" (n/a groups included), at most 12 groups. */
function groupsLine(what: string, groups: readonly AgreementGroup[]): string | null {
  if (groups.length === 0) return null;
  const shown = groups.slice(0, 12).map((g) => `${oneLine(clip(g.key, 80))} ${formatAgreement(g)}`);
  const more = groups.length > shown.length ? ` · and ${groups.length - shown.length} more` : '';
  return `  by ${what}: ${shown.join(' · ')}${more}`;
}

/** Agreement (SPEC 11): the overall line, one line per kind of group, and coverage gaps. */
function agreementLines(run: RunRecord, fit: (t: string) => string): string[] {
  const r = agreementReport({ fixtures: run.fixtures, personas: personasOf(run) as RunRecord['personas'] });
  const lines = [fit(`agreement: ${formatAgreement(r.overall)} (${agreementBasis(r.overall)})`)];
  for (const [what, groups] of [['conversation', r.byConversation], ['file', r.byFile], ['persona', r.byPersona]] as const) {
    const line = groupsLine(what, groups);
    if (line) lines.push(fit(line));
  }
  const cov = run.coverage;
  if (cov) {
    const gaps = cov.gaps.length > 0 ? `never visited: ${cov.gaps.map((g) => oneLine(clip(g, 80))).join(', ')}` : 'every listed conversation visited';
    const unknown = cov.unknown.length > 0 ? ` · not listed: ${cov.unknown.map((g) => oneLine(clip(g, 80))).join(', ')}` : '';
    lines.push(fit(`coverage: ${gaps}${unknown}`));
  }
  return lines;
}

const CHECK_MARK: Record<Check['status'], { mark: string; colour: Colour }> = {
  pass: { mark: '✓', colour: 'green' },
  fail: { mark: '✗', colour: 'red' },
  not_evaluated: { mark: '○', colour: 'grey' },
};

/** The script's line (its section's mark, label, status, file, checks or error), then its open checks. */
function personaLines(p: PersonaRecord, paint: (c: Colour, t: string) => string, fit: (t: string) => string): string[] {
  const style = SECTION_STYLE[sectionOf(p)];
  const checks = checksCount(p.checks);
  const last = p.turns[p.turns.length - 1];
  const unsent = p.unsent.length > 0 && !p.errored && last ? ` · ended on turn ${last.index}, ${p.unsent.length} not sent` : '';
  const detail = p.errored ? `${oneLine(clip(p.error, 2000))} · ${checks}` : `${checks}${unsent}`;
  const head = `  ${style.mark} ${oneLine(p.label)} · ${statusWords(p).join(' · ')} · ${oneLine(p.file)}:${p.line} — ${oneLine(detail)}`;
  const lines = [paint(style.colour, fit(head))];
  for (const c of p.checks) {
    if (c.status === 'pass') continue;
    const subject = checkSubject(c);
    const text = `      ${CHECK_MARK[c.status].mark} ${CHECK_NAMES[c.kind]}${subject ? ` ${oneLine(clip(subject, 120))}` : ''}: ${oneLine(clip(c.detail, 2000))}`;
    lines.push(paint(CHECK_MARK[c.status].colour, fit(text)));
  }
  return lines;
}

function itemLine(
  f: FixtureRecord,
  style: { mark: string; colour: Colour },
  paint: (c: Colour, t: string) => string,
  fit: (t: string) => string,
): string {
  const detail = f.errored ? f.error : f.detail;
  const plain = `  ${style.mark} ${oneLine(f.label)} · ${statusWords(f).join(' · ')} · ${oneLine(f.file)}:${f.line}${
    detail ? ` — ${oneLine(clip(detail, 2000))}` : ''
  }`;
  return paint(style.colour, fit(plain));
}
