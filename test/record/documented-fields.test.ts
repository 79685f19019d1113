// Every field of results.json is documented (docs/results-json.md: "The zod schema in
// src/record/schema.ts is the definition"). FIELDS below lists, object by object, the fields the
// schema has; the test walks the schema and compares, and checks that docs/results-json.md names
// every one of them. A field added to or removed from the schema fails here until this list, and the
// page, say so.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { runRecordSchema } from '../../src/record/schema.js';

/**
 * Each object of the record, by the path where the schema first has it (`[]`: an entry of a list),
 * with its fields. An object the schema reuses (a meaning, a tool call, a route) is listed once,
 * where it is first met.
 */
const FIELDS: Record<string, string> = {
  '': 'schemaVersion tool startedAt finishedAt durationMs commit suitePath configName agent judge simulator meaning estimate tallies interrupted fixtures personas latency usage stats coverage selection removed spend shard repeat suiteEdits incomplete',
  tool: 'name version',
  agent: 'host endpoint',
  judge: 'name names structured structuredFallback',
  simulator: 'name structured structuredFallback',
  meaning: 'check model models provider endpoint promptVersion promptVersions',
  estimate: 'usd capUsd aboveCap confirmed meaningCalls adaptive',
  'estimate.adaptive': 'items lowUsd',
  tallies: 'passed failed notEvaluated errored',

  'fixtures[]':
    'label file line message persona assertion errorAddress latencyMs firstTokenMs usage usagePartial welcomeLatencyMs checks slower faster traceId spans time waterfall toolCalls detail score threshold rationale baseline durationMs definitionHash judgeFingerprint repeat attempts stats judgeReused members errored error errorKind reply route verdict drift',
  'fixtures[].assertion': 'kind value pattern flags criterion threshold ms tool input match assertions',
  'fixtures[].usage': 'inputTokens outputTokens',
  'fixtures[].checks[]': 'assertion status detail score threshold rationale',
  'fixtures[].slower': 'baselineMs latencyMs step',
  'fixtures[].slower.step': 'kind name baselineMs latencyMs',
  'fixtures[].faster': 'baselineMs latencyMs',
  'fixtures[].spans': 'count ignored late',
  'fixtures[].time': 'modelMs toolMs otherMs tools',
  'fixtures[].waterfall[]': 'name kind tool startMs durationMs depth status',
  'fixtures[].toolCalls[]': 'tool input output mocked source',
  'fixtures[].baseline': 'label message persona reply variants route verdict attempts judge latencyMs usage time acceptedAt commit',
  'fixtures[].baseline.route': 'conversation stage',
  'fixtures[].baseline.attempts': 'passed total',
  'fixtures[].baseline.judge': 'score rationale fingerprint members',
  'fixtures[].baseline.judge.fingerprint': 'model endpoint promptVersion criteria',
  'fixtures[].baseline.judge.fingerprint.criteria[]': 'criterion threshold',
  'fixtures[].baseline.judge.members[]': 'label score rationale reason',
  'fixtures[].repeat': 'count minPass passed flaky plan',
  'fixtures[].repeat.plan': 'count minPass max',
  'fixtures[].attempts[]': 'errored error errorKind reply meaning route verdict detail score rationale judgeReused latencyMs time usage usagePartial durationMs members checks toolCalls',
  'fixtures[].attempts[].meaning': 'value by detail facts score reused',
  'fixtures[].attempts[].meaning.facts': 'baseline now',
  'fixtures[].attempts[].meaning.facts.baseline[]': 'kind value',
  'fixtures[].attempts[].judgeReused': 'commit acceptedAt',
  'fixtures[].stats': 'passed total rate ci baseline pDrop pRise tier attemptsNeeded looks maxLooks alpha',
  'fixtures[].stats.baseline': 'passed total',
  'fixtures[].drift': 'reply route verdict meaning',

  'personas[]':
    'label file line persona turns stats errorAddress latencyMs firstTokenMs slower faster usage unsent endedBy visited outcome checks baseline durationMs toolMode errorToolCalls definitionHash judgeFingerprint repeat attempts transcriptHash simulation errored error errorKind verdict drift',
  'personas[].turns[]': 'index message reply route meaning offTrack toolCalls outcome errors durationMs latencyMs firstTokenMs source usage usageUnread traceId spans time waterfall toolCallsProblem',
  'personas[].turns[].errors[]': 'kind tool message',
  'personas[].checks[]': 'status detail kind expected observed turn score threshold rationale reused members',
  'personas[].checks[].expected': 'tool input match contains turn regex flags',
  'personas[].checks[].observed[]': 'tool input output mocked source turn',
  'personas[].baseline': 'label kind transcript endedBy simulation visited outcome verdict attempts judge latencyMs usage acceptedAt commit',
  'personas[].baseline.transcript[]': 'message reply variants route source time',
  'personas[].baseline.simulation': 'doneReason goal instructions persona',
  'personas[].baseline.judge': 'model endpoint promptVersion transcriptHash criteria',
  'personas[].baseline.judge.criteria[]': 'criterion threshold score rationale members',
  'personas[].attempts[]': 'errored error errorKind verdict turns unsent endedBy visited outcome checks transcriptHash errorToolCalls durationMs simulation meaning',
  'personas[].attempts[].simulation': 'goal instructions liveFromTurn endedBy doneReason calls retries fault',
  'personas[].drift': 'transcript route verdict meaning',

  latency: 'turns p50Ms p95Ms',
  stats: 'items before now diff ci seed mcnemar pooled',
  'stats.mcnemar': 'newlyFailing newlyPassing p',
  'stats.pooled': 'before now p',
  coverage: 'listed visited gaps unknown',
  selection: 'rerunOf only labels',
  'removed[]': 'label kind file',
  spend: 'agentTurns agentRetries agentRequests judgeCalls judgeRetries judgeReused simulatorCalls simulatorRetries baselineTurns meaningCalls meaningReused meaningAvoided',
  shard: 'index total suiteHash partition',
  repeat: 'count minPass max flags',
  'repeat.flags': 'count max changed',
  suiteEdits: 'base fixtures config baselines workflows unknown source rev',
  'suiteEdits.fixtures[]': 'label kind file change before after',
  'suiteEdits.config[]': 'file setting change before after default',
  'suiteEdits.baselines[]': 'file status',
  'suiteEdits.workflows[]': 'file status action by',
  incomplete: 'total suiteHash missing foreign',
};

/** The schema's objects, each at the path where it is first met, with its fields in order. */
function schemaFields(): Record<string, string> {
  const found = new Map<string, string[]>();
  const seen = new Set<unknown>();
  const walk = (schema: z.ZodType, path: string): void => {
    const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
    switch (def.type) {
      case 'object': {
        if (seen.has(schema)) return;
        seen.add(schema);
        const fields = found.get(path) ?? [];
        found.set(path, fields);
        for (const [name, field] of Object.entries(def['shape'] as Record<string, z.ZodType>)) {
          if (!fields.includes(name)) fields.push(name);
          walk(field, path === '' ? name : `${path}.${name}`);
        }
        return;
      }
      case 'optional':
      case 'nullable':
      case 'default':
        return walk(def['innerType'] as z.ZodType, path);
      case 'lazy':
        return walk((def['getter'] as () => z.ZodType)(), path);
      case 'pipe':
        return walk(def['in'] as z.ZodType, path);
      case 'array':
        return walk(def['element'] as z.ZodType, `${path}[]`);
      case 'union':
        for (const option of def['options'] as z.ZodType[]) walk(option, path);
        return;
      default:
        return; // a value: a string, a number, an enum, a tuple, JSON data
    }
  };
  walk(runRecordSchema, '');
  return Object.fromEntries([...found].map(([path, fields]) => [path, fields.join(' ')]));
}

/**
 * The names docs/results-json.md gives fields: each part of a name in backticks (`judge.names`,
 * `usagePartial: true`) and every word within braces, where the page lists an object's fields
 * ({passed, total}, [{file, status}], nested ones too).
 */
function namedOnPage(): Set<string> {
  const page = readFileSync('docs/results-json.md', 'utf8');
  const names = new Set<string>();
  for (const m of page.matchAll(/`([A-Za-z_][\w.]*)/g)) for (const part of (m[1] ?? '').split('.')) names.add(part);
  let depth = 0;
  let braced = '';
  for (const ch of page) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    braced += depth > 0 && ch !== '{' ? ch : ' ';
  }
  for (const m of braced.matchAll(/[A-Za-z_]\w*/g)) names.add(m[0]);
  return names;
}

describe('results.json, field by field (docs/results-json.md)', () => {
  it('the schema has exactly the fields listed here (a field added or removed is listed, and documented, too)', () => {
    // In any order: a field moved within its object is no new field.
    const sorted = (fields: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(fields).map(([path, names]) => [path, names.split(' ').sort().join(' ')]));
    expect(sorted(schemaFields())).toEqual(sorted(FIELDS));
  });

  it('docs/results-json.md names every field the schema has', () => {
    const named = namedOnPage();
    const unnamed = Object.entries(FIELDS).flatMap(([path, fields]) => fields.split(' ').filter((f) => !named.has(f)).map((f) => (path === '' ? f : `${path}.${f}`)));
    expect(unnamed).toEqual([]);
  });
});
