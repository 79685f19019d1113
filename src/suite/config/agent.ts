// config.yml `agent:` (docs/configuration.md, docs/presets.md): the schema of the section as
// written, and its resolution into `config.agent`: url, plain settings, the request/response
// mapping of the preset, the welcome turn, and warnings about the request template.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { AGENT_PRESET_NAMES, DEFAULT_MAX_TOKENS, PRESETS, type AgentMapping, type AgentPreset, type Config, type JsonValue } from '../../config.js';
import { MAX_WAIT_FOR_AGENT_S } from '../../agent/ready.js';
import { absent, concurrencyInt, headerValue, jsonTemplate, ms, retriesInt, unsure, urlIssue, type Resolution } from './shared.js';
import type { PathSegment } from '../yaml/index.js';

export const AGENT_PRESETS = AGENT_PRESET_NAMES satisfies readonly AgentPreset[];

/** `agent.response`, and `agent.start`'s response: the path each field is read at. */
const responseSchema = onFirstUse(() => {
  const fieldPath = z.string().min(1);
  return z.strictObject({
    reply: fieldPath.optional(),
    conversation: fieldPath.nullable().optional(),
    stage: fieldPath.nullable().optional(),
    ended: fieldPath.nullable().optional(),
    offTrack: fieldPath.nullable().optional(),
    toolCalls: fieldPath.nullable().optional(),
    outcome: fieldPath.nullable().optional(),
    errors: fieldPath.nullable().optional(),
  });
});

/**
 * Each key's schema, in the section's order, built on first use: `agent:` builds the schemas of the
 * keys it has (`schemaFor`), so a file without `headers:` or `preset:` builds neither's
 * (docs/performance.md, "2026-12-07 (evening): zod schemas on the start").
 */
const KEY_SCHEMAS = {
  url: onFirstUse(() => z.string().nullable().optional()),
  preset: onFirstUse(() => z.enum(AGENT_PRESETS).optional()),
  model: onFirstUse(() => z.string().nullable().optional()),
  maxTokens: onFirstUse(() => z.number().int({ error: 'must be a whole number of tokens, at least 1' }).min(1, { error: 'must be a whole number of tokens, at least 1' }).optional()),
  assistantId: onFirstUse(() => z.string().nullable().optional()),
  stream: onFirstUse(() => z.boolean().optional()),
  headers: onFirstUse(() => z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).nullable().optional()),
  timeoutMs: onFirstUse(() => ms(1).optional()),
  concurrency: onFirstUse(() => concurrencyInt().optional()),
  retries: onFirstUse(() => retriesInt().optional()),
  backoffMs: onFirstUse(() => ms(0).optional()),
  waitForAgent: onFirstUse(() =>
    z
      .number()
      .int({ error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
      .min(0, { error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
      .max(MAX_WAIT_FOR_AGENT_S, { error: `must be a whole number of seconds from 0 to ${MAX_WAIT_FOR_AGENT_S}` })
      .optional(),
  ),
  request: onFirstUse(() => z.strictObject({ body: jsonTemplate().optional() }).nullable().optional()),
  response: onFirstUse(() => responseSchema().nullable().optional()),
  start: onFirstUse(() =>
    z
      .union([z.boolean(), z.strictObject({ body: jsonTemplate().optional(), response: responseSchema().optional() })], {
        error: 'must be true, false, or a mapping with body and/or response',
      })
      .nullable()
      .optional(),
  ),
};

/** `start: true`, `false` or empty: what start's first alternative reads, without the mapping's schema (`start: false` is common). */
const startFlag = onFirstUse(() => z.boolean().nullable().optional());

type AgentKey = keyof typeof KEY_SCHEMAS;
type AgentShape = { [K in AgentKey]: ReturnType<(typeof KEY_SCHEMAS)[K]> };
const AGENT_KEYS = Object.keys(KEY_SCHEMAS) as AgentKey[];

/** The section's schema, every key's. */
export const schema = onFirstUse(() => z.strictObject(Object.fromEntries(AGENT_KEYS.map((key) => [key, KEY_SCHEMAS[key]()])) as AgentShape));

/**
 * The section's schema for `value` as written: the schemas of the keys it has, the others only
 * absent (as every key is optional, it accepts and gives what `schema()` does). Every key's for a
 * value that is not a mapping of the section's keys, whose issues may name any key; the loader
 * checks a file that fails with every key's (resolveConfigFile), so its messages are the same.
 */
export function schemaFor(value: unknown): z.ZodObject<AgentShape> {
  const written = value ?? {};
  if (typeof written !== 'object' || Array.isArray(written) || !Object.keys(written).every((key) => Object.hasOwn(KEY_SCHEMAS, key))) return schema();
  const start = (written as { start?: unknown }).start;
  const flag = typeof start === 'boolean' || start === null;
  const keySchema = (key: AgentKey): z.ZodType => {
    if (!Object.hasOwn(written, key)) return absent();
    return key === 'start' && flag ? startFlag() : KEY_SCHEMAS[key]();
  };
  // One schema a set of keys: a file loaded again (watch, tests) builds none.
  const id = `${AGENT_KEYS.filter((key) => Object.hasOwn(written, key)).join(' ')}${flag ? ' (start flag)' : ''}`;
  let built = byKeys.get(id);
  if (built === undefined) byKeys.set(id, (built = z.strictObject(Object.fromEntries(AGENT_KEYS.map((key) => [key, keySchema(key)])) as unknown as AgentShape)));
  return built;
}

/** schemaFor's schemas, by the keys written. */
const byKeys = new Map<string, z.ZodObject<AgentShape>>();

type AgentSection = z.infer<ReturnType<typeof schema>>;
type ResponseFields = NonNullable<AgentSection['response']>;

/** Resolves `agent:` into `config.agent` (absent or null: the native preset's defaults). */
export function resolve(config: Config, resolved: AgentSection | null | undefined, written: AgentSection | null | undefined, r: Resolution): void {
  resolveAgent(config, resolved ?? {}, written ?? {}, r);
}

/** agent: url, plain settings, the request/response mapping of the preset, the welcome turn. */
function resolveAgent(config: Config, agent: AgentSection, written: AgentSection, r: Resolution): void {
  const preset: AgentPreset = agent.preset ?? 'native';
  config.agent.preset = preset;
  resolveAgentUrl(config, agent.url, written.url, r);
  applyAgentSettings(config, agent, r);
  const presetMapping = PRESETS[preset].mapping;
  const stream = resolveStream(preset, agent, r);
  config.agent.stream = stream;
  const mapping = withResponse({ ...presetMapping, body: agent.request?.body ?? presetBody(preset, stream) }, agent.response ?? undefined, lendsPersonaPaths(preset));
  config.agent.mapping = mapping;
  config.agent.start = resolveWelcomeTurn(preset, agent.start, agent.request?.body !== undefined, mapping, r);
  // Where the file sets the reply's path, for the cause of a reply not there (src/evaluate/causes.ts).
  const replyAt = agent.response?.reply === undefined || r.src === null ? null : r.issueAt(['agent', 'response', 'reply'], '', '');
  if (replyAt !== null && replyAt.line !== null) config.agent.mapping = { ...mapping, replyAt: { path: mapping.reply, at: `${replyAt.file}:${String(replyAt.line)}` } };
  warnAboutTemplate(config, agent, mapping, r);
}

/**
 * Whether replies are asked for as a stream: `agent.stream` (default false), always for vercel-ai.
 * A preset whose API has no streaming form cannot stream (a custom request body may: the agent
 * then decides what it sends, and any stream is read).
 */
export function streams(preset: AgentPreset, agent: Pick<AgentSection, 'stream' | 'request'>): boolean {
  const info = PRESETS[preset];
  return info.alwaysStreams || (agent.stream === true && (info.streamBody !== null || agent.request?.body !== undefined));
}

/** `streams`, and an error for `agent.stream: true` where the preset has no streaming form. */
function resolveStream(preset: AgentPreset, agent: AgentSection, r: Resolution): boolean {
  const stream = streams(preset, agent);
  // A preset or a request body with a shape error of its own: the preset's form is not known yet.
  if (agent.stream !== true || stream || unsure(r, ['agent', 'preset'], ['agent', 'request', 'body'])) return stream;
  r.errors.push(
    r.issueAt(
      ['agent', 'stream'],
      `agent.stream is true, but ${presetNamed(preset, r)} has no streaming form`,
      'remove agent.stream (streams are read whenever the agent sends one), or give the request body yourself',
    ),
  );
  return false;
}

/** The request body the preset sends when `agent.request.body` is not given: its own, or its streaming form (docs/presets.md). */
export function presetBody(preset: AgentPreset, stream: boolean): JsonValue {
  const info = PRESETS[preset];
  return stream && info.streamBody !== null ? info.streamBody(info.mapping.body) : info.mapping.body;
}

/** Only a preset that reads the raw answer (openai-chat) lends its persona paths to response paths of one's own. */
function lendsPersonaPaths(preset: AgentPreset): boolean {
  const info = PRESETS[preset];
  return preset !== 'native' && info.mapping.decode === undefined && !info.alwaysStreams;
}

/** The keys of `agent.response`, each a path the answer is read at. */
export const RESPONSE_KEYS = ['reply', 'conversation', 'stage', 'ended', 'offTrack', 'toolCalls', 'outcome', 'errors'] as const;

/**
 * The path each `agent.response` key is read at for the run, the keys written and the rest as the
 * loader takes them from the preset (withResponse: persona paths not written are not read unless the
 * preset lends them). null for a preset that decodes its answer (openai-responses,
 * anthropic-messages, rasa-rest, langgraph, mastra): its paths read the decoded answer, and writing
 * any drops the decoding, so none is a default.
 */
export function responsePaths(preset: AgentPreset, response: ResponseFields | null | undefined): Record<(typeof RESPONSE_KEYS)[number], string | null> | null {
  const info = PRESETS[preset];
  if (info.mapping.decode !== undefined) return null;
  const mapping = withResponse(info.mapping, response ?? undefined, lendsPersonaPaths(preset));
  return Object.fromEntries(RESPONSE_KEYS.map((k) => [k, mapping[k]])) as Record<(typeof RESPONSE_KEYS)[number], string | null>;
}

function resolveAgentUrl(config: Config, url: string | null | undefined, writtenUrl: string | null | undefined, r: Resolution): void {
  if (url === undefined || url === null || url === '' || unsure(r, ['agent', 'url'])) return;
  const issue = urlIssue('agent.url', writtenUrl ?? '', url, { what: 'the full address of the agent', key: 'url', example: 'https://preview.example.com/api/chat' });
  if (issue === null) config.agent.url = url;
  else r.errors.push(r.issueAt(['agent', 'url'], issue.message, issue.fix));
}

function applyAgentSettings(config: Config, agent: AgentSection, r: Resolution): void {
  if (agent.model !== undefined) config.agent.model = agent.model === '' ? null : agent.model;
  const preset = agent.preset ?? 'native';
  if (agent.maxTokens !== undefined) config.agent.maxTokens = agent.maxTokens;
  else if (preset === 'anthropic-messages') config.agent.maxTokens = DEFAULT_MAX_TOKENS;
  if (agent.assistantId !== undefined) config.agent.assistantId = agent.assistantId === '' ? null : agent.assistantId;
  else if (preset === 'langgraph') config.agent.assistantId = null;
  if (agent.headers) {
    for (const [name, value] of Object.entries(agent.headers)) config.agent.headers[name] = headerValue(value, ['agent', 'headers', name], r);
  }
  for (const [name, value] of Object.entries(PRESETS[preset].headers ?? {})) {
    const named = Object.keys(config.agent.headers).some((h) => h.toLowerCase() === name);
    if (!named) config.agent.headers[name] = value;
  }
  if (agent.timeoutMs !== undefined) config.agent.timeoutMs = agent.timeoutMs;
  if (agent.concurrency !== undefined) config.agent.concurrency = agent.concurrency;
  if (agent.retries !== undefined) config.agent.retries = agent.retries;
  if (agent.backoffMs !== undefined) config.agent.backoffMs = agent.backoffMs;
  if (agent.waitForAgent !== undefined) config.agent.waitForAgent = agent.waitForAgent;
}

/**
 * The welcome turn's mapping, or null for none. It reads the message turn's response fields unless
 * told otherwise. A request body of one's own (a custom mapping) has no welcome turn unless
 * `agent.start` asks for one: the preset's welcome request belongs to the preset's own body.
 */
function resolveWelcomeTurn(preset: AgentPreset, startSetting: AgentSection['start'], customBody: boolean, mapping: AgentMapping, r: Resolution): AgentMapping | null {
  const presetStartBody = PRESETS[preset].start?.body ?? null;
  const start = startSetting === undefined ? presetStartBody !== null && !customBody : startSetting === null ? false : startSetting;
  if (start === false) return null;
  const body = start === true ? presetStartBody : (start.body ?? presetStartBody);
  if (body === null) {
    if (unsure(r, ['agent', 'preset'], ['agent', 'start'])) return null;
    r.errors.push(
      r.issueAt(
        ['agent', 'start'],
        `agent.start asks for a welcome turn, but ${presetNamed(preset, r)} has no welcome request`,
        'give the welcome request yourself (start: { body: {...} }) or remove agent.start',
      ),
    );
    return null;
  }
  const welcome = withResponse({ ...mapping, body }, start === true ? undefined : start.response, true);
  // Where the file sets the welcome's own reply path: a welcome answer with fields but none there is said (docs/presets.md, "Any JSON API").
  const replyAt = start === true || start.response?.reply === undefined || r.src === null ? null : r.issueAt(['agent', 'start', 'response', 'reply'], '', '');
  if (replyAt === null || replyAt.line === null) return welcome;
  return { ...welcome, replyAt: { path: welcome.reply, at: `${replyAt.file}:${String(replyAt.line)}`, key: 'agent.start.response.reply' } };
}

/** The preset as a message names it: the flag that gave it (probe's --preset), else the file's setting. */
function presetNamed(preset: AgentPreset, r: Resolution): string {
  return r.presetFromFlag === true ? `--preset ${preset}` : `the ${preset} preset`;
}

/** Where an issue about what the preset brings is placed: the file's agent.preset, never when the flag gave it (the file's line says another preset, or none). */
function presetAt(agent: AgentSection, r: Resolution): PathSegment[] {
  return agent.preset !== undefined && r.presetFromFlag !== true ? ['agent', 'preset'] : ['agent'];
}

function warnAboutTemplate(config: Config, agent: AgentSection, mapping: AgentMapping, r: Resolution): void {
  // The body is the preset's or the request's: not known while either has a shape error.
  if (unsure(r, ['agent', 'preset'], ['agent', 'request', 'body'])) return;
  if (containsPlaceholder(mapping.body, '{{model}}') && config.agent.model === null && !unsure(r, ['agent', 'model'])) {
    r.warnings.push(
      r.issueAt(
        agent.request?.body !== undefined ? ['agent', 'request', 'body'] : presetAt(agent, r),
        agent.request?.body === undefined && r.presetFromFlag
          ? `the request body of ${presetNamed(config.agent.preset, r)} uses {{model}} but agent.model is not set: the agent will receive model: null`
          : 'the request body uses {{model}} but agent.model is not set: the agent will receive model: null',
        'set agent.model, e.g. model: gpt-4o-mini',
      ),
    );
  }
  if (containsPlaceholder(mapping.body, '{{assistantId}}') && (config.agent.assistantId ?? null) === null && !unsure(r, ['agent', 'assistantId'])) {
    r.warnings.push(
      r.issueAt(
        presetAt(agent, r),
        r.presetFromFlag
          ? `the request body of ${presetNamed(config.agent.preset, r)} uses {{assistantId}} but agent.assistantId is not set: the agent will receive assistant_id: null`
          : 'the request body uses {{assistantId}} but agent.assistantId is not set: the agent will receive assistant_id: null',
        'set agent.assistantId to the graph or assistant id, e.g. assistantId: agent',
      ),
    );
  }
  if (!['{{message}}', '{{messages}}', '{{uiMessages}}'].some((p) => containsPlaceholder(mapping.body, p))) {
    r.warnings.push(
      r.issueAt(
        ['agent', 'request', 'body'],
        'the request body never sends {{message}}, {{messages}} or {{uiMessages}}: every fixture will send the same request',
        'put "{{message}}" where the agent expects the user message (or "{{messages}}" where it expects the chat history)',
      ),
    );
  }
}

/**
 * Response paths of one's own read the body as it is: a preset's decoding (mapping.decode) is
 * dropped, and the persona paths not given (toolCalls, outcome, errors) are not read unless
 * `lend` (the preset reads them from the raw answer too): another API's `toolCalls` or `errors`
 * key is not the native protocol's (docs/presets.md, "Any JSON API: templates and paths").
 */
function withResponse(mapping: AgentMapping, response: ResponseFields | undefined, lend: boolean): AgentMapping {
  if (!response) return mapping;
  const own = lend ? mapping : { ...mapping, toolCalls: null, outcome: null, errors: null };
  return {
    body: mapping.body,
    reply: response.reply ?? mapping.reply,
    conversation: response.conversation !== undefined ? response.conversation : mapping.conversation,
    stage: response.stage !== undefined ? response.stage : mapping.stage,
    ended: response.ended !== undefined ? response.ended : mapping.ended,
    offTrack: response.offTrack !== undefined ? response.offTrack : mapping.offTrack,
    toolCalls: response.toolCalls !== undefined ? response.toolCalls : own.toolCalls,
    outcome: response.outcome !== undefined ? response.outcome : own.outcome,
    errors: response.errors !== undefined ? response.errors : own.errors,
    // A path of one's own follows the native rule (a missing value: not reported); the preset's path keeps the preset's rule.
    absentToolCallsAreNone: response.toolCalls !== undefined && response.toolCalls !== mapping.toolCalls ? false : mapping.absentToolCallsAreNone,
    // The preset's refusal is a sibling of its reply: a reply path of one's own reads no refusal.
    ...(mapping.refusal !== undefined && (response.reply === undefined || response.reply === mapping.reply) ? { refusal: mapping.refusal } : {}),
    // A reply path of one's own (or the message turn's, for the welcome) is read on a stream's own events too (docs/presets.md, "Streamed replies").
    ...(response.reply !== undefined || mapping.ownReply === true ? { ownReply: true as const } : {}),
  };
}

export function containsPlaceholder(body: JsonValue, placeholder: string): boolean {
  if (typeof body === 'string') return body.includes(placeholder);
  if (Array.isArray(body)) return body.some((b) => containsPlaceholder(b, placeholder));
  if (body !== null && typeof body === 'object') return Object.values(body).some((b) => containsPlaceholder(b, placeholder));
  return false;
}
