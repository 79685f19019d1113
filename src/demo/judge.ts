// The demo judge: an OpenAI-compatible chat completions answer computed by keyword rules, not a
// model, and named as such everywhere. Deterministic, so the demo's judged verdicts never move:
//   - a criterion that asks for an opinion gets prose with no score (a judge answer that cannot
//     be used: not evaluated);
//   - otherwise the first rule whose criterion pattern matches decides which words the agent's
//     text must contain; score 0.9 when it does, 0.2 when it does not.
// The agent's text is the reply (fixtures) or every agent turn of the transcript (persona
// criteria); the user's messages are never scored.

import { unicodePattern } from '../patterns.js';

interface Rule {
  criterion: RegExp;
  evidence: RegExp;
  met: string;
  unmet: string;
}

const RULES: Rule[] = [
  { criterion: /order number/i, evidence: /\border \d{3,}\b/i, met: 'The agent repeats the order number back.', unmet: 'The agent never names the order number.' },
  { criterion: /replacement/i, evidence: /\breplacement\b/i, met: 'The agent offers a replacement.', unmet: 'The agent offers no replacement, only a refund or a handover.' },
  { criterion: /hand(ed|s)? ?(over|off)|human|colleague/i, evidence: /\b(colleague|support team|handing you over)\b/i, met: 'The agent hands over to a person and says so.', unmet: 'The agent does not say that a person takes over.' },
  // The default, and the fixtures' rule: an apology is what the demo judge takes for empathy.
  { criterion: /[\s\S]*/, evidence: /\bsorry\b/i, met: 'The reply apologises and offers a concrete remedy.', unmet: 'The reply does not acknowledge the problem.' },
];

const PROSE = 'I think this reply is rather diplomatic overall, but I would not want to put a number on it.';

/** The criterion and the agent's text out of the judge prompt (src/judge/prompt.ts). */
export function readJudgePrompt(text: string): { criterion: string; agentText: string } {
  const criterion = /Criterion:\n([^\n]*)/.exec(text)?.[1] ?? '';
  const reply = /<(reply-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(text)?.[2];
  if (reply !== undefined) return { criterion, agentText: reply };
  const transcript = /<(transcript-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(text)?.[2] ?? '';
  return { criterion, agentText: agentLines(transcript) };
}

/**
 * The agent's replies in a transcript (src/judge/prompt.ts transcriptText): the text after an
 * `Agent:` or `Agent (welcome):` label and its continuation lines, up to the next label. User lines
 * and the tool-call lines (`Agent called tool ...`) are not the agent's words.
 */
function agentLines(transcript: string): string {
  const out: string[] = [];
  let agent = false;
  for (const line of transcript.split('\n')) {
    const label = /^\s*(?:\[[^\]]*\]\s*)?(User|Agent|Assistant)(?: \([^)]*\))?:\s?(.*)$/i.exec(line);
    if (/^\s*(?:\[[^\]]*\]\s*)?Agent called tool /i.test(line)) {
      agent = false;
    } else if (label) {
      agent = !/^user$/i.test(label[1] as string);
      if (agent) out.push(label[2] as string);
    } else if (agent) {
      out.push(line);
    }
  }
  return out.join('\n');
}

function judgeAnswerOf(text: string): string {
  const { criterion, agentText } = readJudgePrompt(text);
  return judgeAnswer(criterion, agentText);
}

export function judgeAnswer(criterion: string, agentText: string): string {
  if (/opinion/i.test(criterion)) return PROSE;
  const rule = RULES.find((r) => r.criterion.test(criterion)) as Rule;
  const met = rule.evidence.test(agentText);
  return JSON.stringify({ rationale: met ? rule.met : rule.unmet, score: met ? 0.9 : 0.2 });
}

// The meaning judge's questions (docs/meaning.md), answered by a keyword rule too: two replies
// mean the same unless the words that differ between them include a number word or a negation.
// Replies that give an opinion get prose with no score, as an opinion criterion does: the meaning
// is then not checked (`unchecked`).
const MEANING_WORDS = /^(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|once|twice|no|not|never|none|cannot|can't|won't|don't|doesn't|isn't|aren't)$/;

const OPINION = /\b(?:favou?rite|honestly|like \S+(?: \S+)* best)\b/i;
const MEANING_PROSE = 'Which of two opinions says the same is a matter of taste; I would not want to put a number on it.';

function quoted(text: string, name: string): string | null {
  const m = new RegExp(`^<<<(\\S+) ${name}\\n([\\s\\S]*?)\\n>>>\\1 ${name}$`, 'm').exec(text);
  return m ? (m[2] as string) : null;
}

const WORD = unicodePattern(String.raw`[\p{L}']+`, 'gu');
const wordsOf = (text: string): Set<string> => new Set(text.toLowerCase().match(WORD()) ?? []);

/** `{score, difference}` for one meaning question: the demo's rule, not a model's reading. */
export function meaningAnswer(baseline: string, now: string): string {
  if (OPINION.test(baseline) || OPINION.test(now)) return MEANING_PROSE;
  const before = wordsOf(baseline);
  const after = wordsOf(now);
  const lost = [...before].filter((w) => !after.has(w) && MEANING_WORDS.test(w));
  const gained = [...after].filter((w) => !before.has(w) && MEANING_WORDS.test(w));
  if (lost.length === 0 && gained.length === 0) return JSON.stringify({ difference: '', score: 0.9 });
  const words = (list: string[]): string => (list.length === 0 ? 'none' : list.map((w) => `"${w}"`).join(', '));
  return JSON.stringify({ difference: `says ${words(gained)} where the baseline said ${words(lost)}`, score: 0.1 });
}

/** The chat completions response for one judge request. */
export function judgeTurn(body: Record<string, unknown>): unknown {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  const baseline = quoted(text, 'BASELINE REPLY');
  const now = quoted(text, 'NEW REPLY');
  const content = baseline !== null && now !== null ? meaningAnswer(baseline, now) : judgeAnswerOf(text);
  return { id: 'demo', object: 'chat.completion', model: 'demo-judge', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] };
}
