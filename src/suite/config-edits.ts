// What a pull request changed in its suite's config.yml that changes what is replayed or how
// verdicts are reached (docs/action.md, "The PR comment", "Suite edited"): the agent it sends to and
// how, the judge (its model, panel, address, key), the meaning judge, the simulated users' model,
// the suite's `repeat`, latency and statistics thresholds, unmocked tools, traces. Compared setting
// by setting, each by the value it has for the run (a setting not written has its default: writing
// one out is no edit; a value written that the run does not use reads as not written), before `${NAME}` is read (the base's environment is not known): a reference
// is a name and is shown; a credential (an API key, a token, a header's value) is compared and said
// changed, never shown; an address is shown as records show one (src/endpoint.ts). Settings that
// change no verdict are not listed: timeouts, retries, backoff, concurrency, the wait for the agent,
// a judge's label, regex limits, the cost cap and prices, coverage. Pure.

import type * as z from 'zod';
import type { ConfigEdit } from '../types.js';
import { DEFAULT_ALPHA, DEFAULT_LATENCY, DEFAULT_MAX_TOKENS, defaultConfig, modelFromJudge, panelMemberConfig, PRESETS, type JudgeConfig } from '../config.js';
import { hideEndpointTokens, looksLikeToken, urlEndpoint } from '../endpoint.js';
import { line } from '../assertions/format.js';
import { SECRET_KEY } from './secret-key.js';
import * as agentSection from './config/agent.js';
import * as judgeSection from './config/judge.js';
import * as simulatorSection from './config/simulator.js';
import { TRACES_DEFAULTS } from './config/traces.js';
import { meaningCheckOf, meaningSchema, meaningThresholdOf, ownModel } from './meaning-config.js';
import { checkRepeat, repeatOf } from './repeat.js';
import { readYaml, withYamlPackage } from './yaml/index.js';

/**
 * config.yml (or config.yaml) at the base and at the head: its path on each side and its text
 * (`text` null: the file is there but its text was not given, GitHub's answer for a file over 1 MB);
 * a side null: no config file there.
 */
export interface ChangedConfigFile {
  before: { path: string; text: string | null } | null;
  after: { path: string; text: string | null } | null;
}

/** A setting (or a key) whose value is an address: `agent.url`, a `baseUrl`. */
const ADDRESS_KEY = /(?:^|[.])(?:url|baseUrl)$/;

/** Why a side whose text was not given is not compared (our words; the block says them). */
const TOO_LARGE = 'is over 1 MB (GitHub gives no text of a file that large)';

/** Sections none of whose settings change a verdict (docs/action.md, "Suite edited"). */
const UNLISTED_SECTIONS = new Set(['cost', 'coverage', 'regex']);
/** Keys that change no verdict wherever they are (the agent's, the judge's, a panel member's). */
const UNLISTED_KEYS = new Set(['timeoutMs', 'retries', 'backoffMs', 'concurrency', 'waitForAgent', 'label']);

/** How long a value as written may be in a line (the surfaces clip it again). */
const MAX_VALUE = 200;

/**
 * A setting's value on one side: as written, or (`defaulted`) the default it has when not written,
 * or (a mapping or list) the whole value where its kind changed.
 */
type Leaf = { setting: string; value: unknown; secret: boolean; address: boolean; defaulted?: true };

/** Whether a setting's path is a credential's: a key named like one on the way, or a header's value (a credential as often as not). */
function secretPath(path: string): boolean {
  return path.split(/[.[\]]+/).some((k) => k !== '' && SECRET_KEY.test(k)) || path.startsWith('agent.headers.');
}

/** A value at `path` as compared: a credential by its key or by the way it reads, an address by its key. */
function leafOf(path: string, value: unknown, secret: boolean): Leaf {
  const address = ADDRESS_KEY.test(path);
  // A value that reads as a key under a key named otherwise (a request body's `key: sk-...`): a credential all the same.
  const tokenLike = !address && typeof value === 'string' && value.split(/[\s:=,;"']+/).some(looksLikeToken);
  return { setting: path, value, secret: secret || tokenLike, address };
}

/**
 * Every value the file sets, by its path (`judge.panel[0].model`): mappings and lists walked to their
 * values (`out`), and every path the file has, mappings and lists included (`nodes`).
 */
function leaves(data: unknown, path: string, secret: boolean, out: Map<string, Leaf>, nodes: Map<string, unknown>): void {
  if (path !== '') nodes.set(path, data);
  if (Array.isArray(data)) {
    data.forEach((v, i) => leaves(v, `${path}[${i}]`, secret, out, nodes));
    if (data.length === 0) out.set(path, { setting: path, value: [], secret, address: false });
    return;
  }
  if (data !== null && typeof data === 'object') {
    const entries = Object.entries(data as Record<string, unknown>);
    for (const [key, value] of entries) {
      const at = path === '' ? key : `${path}.${key}`;
      // A header's value is a credential as often as not (Authorization, X-Api-Key, a tenant's key).
      leaves(value, at, secret || SECRET_KEY.test(key) || path === 'agent.headers', out, nodes);
    }
    if (entries.length === 0 && path !== '') out.set(path, { setting: path, value: {}, secret, address: false });
    return;
  }
  out.set(path, leafOf(path, data, secret));
}

/** A section of the file when it is a mapping; otherwise (absent, or of another kind) undefined. */
function mappingAt(data: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = data[key];
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `value` when it has the section's shape (its schema's), else undefined: no default is taken from a section that does not load. */
function shaped<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The value each listed setting has on a side that does not write it, by its path, from the
 * defaults the suite loads with and the rules it reads them by (src/config.ts: defaultConfig,
 * DEFAULT_ALPHA, DEFAULT_LATENCY, JUDGE_DEFAULTS; judgeWithDefaults, panelMemberConfig, modelFromJudge, checkRepeat,
 * meaningCheckOf, TRACES_DEFAULTS; src/suite/config/agent.ts: streams, presetBody, responsePaths):
 * a judge's keys by its provider, a panel member's, the meaning judge's and the simulator's from
 * the judge, minPass from count, the agent's streaming, request body and response paths the
 * preset's. A setting with no default (an address not given, `repeat.max`, a response path of a
 * preset that decodes its answer) has none here and reads "not set".
 */
function defaultsOf(data: Record<string, unknown>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const set = (prefix: string, values: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(values)) out.set(`${prefix}.${key}`, value);
  };
  const model = (c: JudgeConfig): Record<string, unknown> => ({ provider: c.provider, baseUrl: c.baseUrl, model: c.model, apiKey: c.apiKey });
  // Sections whose `{}` is every default (a judge's `{}` is a judge, and its absence none).
  for (const section of ['agent', 'meaning', 'latency', 'stats', 'personas']) out.set(section, {});

  const base = defaultConfig().agent;
  const agent = shaped(agentSection.schema(), mappingAt(data, 'agent') ?? {});
  if (agent !== undefined) {
    const preset = agent.preset ?? base.preset;
    // The preset's own: whether it streams (vercel-ai always does), its request body, its response paths.
    set('agent', { preset: base.preset, url: null, model: null, assistantId: null, stream: PRESETS[preset].alwaysStreams, headers: {} });
    if (preset === 'anthropic-messages') out.set('agent.maxTokens', DEFAULT_MAX_TOKENS);
    if (agent.request?.body === undefined) {
      out.set('agent.request', {});
      const body = new Map<string, Leaf>();
      leaves(agentSection.presetBody(preset, agentSection.streams(preset, agent)), 'agent.request.body', false, body, new Map());
      for (const [path, leaf] of body) out.set(path, leaf.value);
    }
    const paths = agentSection.responsePaths(preset, agent.response);
    if (paths !== null) set('agent.response', paths);
    // The welcome turn: the preset's when it has one and the request body is its own, off otherwise;
    // its body the preset's where the file gives none (src/suite/config/agent.ts, resolveWelcomeTurn).
    const presetStart = PRESETS[preset].start?.body ?? null;
    const start = agent.start === undefined ? presetStart !== null && agent.request?.body === undefined : agent.start !== null && agent.start !== false;
    if (agent.start === undefined || typeof agent.start === 'boolean') out.set('agent.start', start);
    if (start && presetStart !== null && (typeof agent.start !== 'object' || agent.start?.body === undefined)) {
      const body = new Map<string, Leaf>();
      leaves(presetStart, 'agent.start.body', false, body, new Map());
      for (const [path, leaf] of body) out.set(path, leaf.value);
    }
    // Its response paths the message turn's where the file gives none (withResponse): those the run reads.
    if (start && paths !== null) set('agent.start.response', paths);
  }
  const judgeWritten = data.judge === undefined ? undefined : shaped(judgeSection.schema(), data.judge);
  const judge = judgeWritten === undefined || judgeWritten === null ? null : judgeSection.judgeWithDefaults(judgeWritten);
  if (judge !== null) {
    set('judge', { ...model(judge), panel: null });
    (judgeWritten?.panel ?? []).forEach((m, i) => set(`judge.panel[${i}]`, model(panelMemberConfig(judge, m))));
  }
  // The meaning judge and the simulator take the keys they do not give from the judge, as a panel member does.
  const simulator = data.simulator === undefined ? undefined : shaped(simulatorSection.schema(), data.simulator);
  if (simulator !== undefined || judge !== null) set('simulator', model(modelFromJudge(judge, simulator ?? {})));
  const meaning = data.meaning === undefined ? {} : shaped(meaningSchema(), data.meaning);
  if (meaning !== undefined && meaning !== null) {
    const check = meaningCheckOf({ judge, meaning });
    set('meaning', { check, threshold: meaningThresholdOf({ meaning }) });
    if (check === 'judge' && (judge !== null || ownModel(meaning))) set('meaning', model(modelFromJudge(judge, meaning)));
  }
  const repeat = data.repeat === undefined ? repeatOf({}, null) : checkRepeat(data.repeat, ['repeat'], '', () => {});
  if (repeat !== null) set('repeat', { count: repeat.count, minPass: repeat.minPass });
  set('latency', { ...DEFAULT_LATENCY });
  set('stats', { alpha: DEFAULT_ALPHA });
  set('personas', { unmockedTools: null });
  const traces = mappingAt(data, 'traces');
  if (traces !== undefined) {
    out.set('traces.waitMs', TRACES_DEFAULTS.waitMs);
    if (mappingAt(traces, 'receive') !== undefined) out.set('traces.receive.port', TRACES_DEFAULTS.port);
  }
  return out;
}

/**
 * The agent's settings whose `null` written the loader reads as another value (src/suite/config/agent.ts),
 * compared as the run reads them: `start: null` is no welcome turn, as `false` is; `headers`,
 * `request` and `response` null are not given (undefined: read as not written).
 */
const NULL_READS: readonly [string, unknown][] = [
  ['agent.start', false],
  ['agent.headers', undefined],
  ['agent.request', undefined],
  ['agent.response', undefined],
];

/** The agent's settings a request reads only through its placeholder in a body (src/agent/template.ts). */
const BY_PLACEHOLDER: readonly [string, string][] = [
  ['agent.model', '{{model}}'],
  ['agent.maxTokens', '{{maxTokens}}'],
  ['agent.assistantId', '{{assistantId}}'],
];

/**
 * The agent's settings a side writes that the run does not use, read as not written (docs/action.md,
 * "Suite edited"): a `stream` the preset overrides (vercel-ai streams whatever it says), and a
 * `model`, `maxTokens` or `assistantId` that no body sent (the request's or the welcome turn's) has
 * the placeholder of. What the run does is compared, not what the file says to no effect.
 */
function ignoredAgentSettings(data: Record<string, unknown>): string[] {
  const agent = shaped(agentSection.schema(), mappingAt(data, 'agent') ?? {});
  if (agent === undefined) return [];
  const preset = agent.preset ?? defaultConfig().agent.preset;
  const stream = agentSection.streams(preset, agent);
  const ignored = agent.stream !== undefined && agent.stream !== stream ? ['agent.stream'] : [];
  const body = agent.request?.body ?? agentSection.presetBody(preset, stream);
  // The welcome turn's body, as the loader picks it (src/suite/config/agent.ts, resolveWelcomeTurn).
  const presetStart = PRESETS[preset].start?.body ?? null;
  const start = agent.start === undefined ? (presetStart !== null && agent.request?.body === undefined ? presetStart : null) : agent.start === null || agent.start === false ? null : agent.start === true ? presetStart : (agent.start.body ?? presetStart);
  const sent = JSON.stringify([body, start]);
  for (const [setting, placeholder] of BY_PLACEHOLDER) if (!sent.includes(placeholder)) ignored.push(setting);
  return ignored;
}

/**
 * The keys that, not written, are the judge's own (a panel member's, the meaning judge's, the
 * simulated users'): a change of them where neither side writes them is the judge's, said once
 * on its line, not again on each copy.
 */
const JUDGE_COPY = /^(?:judge\.panel\[\d+\]|meaning|simulator)\.(?:provider|baseUrl|model|apiKey)$/;

/** `judge` of `judge.panel[0].model`. */
function sectionOf(setting: string): string {
  return /^[^.[]+/.exec(setting)?.[0] ?? '';
}

/** The sections a side writes that do not have their schema's shape: their values for the run are not known. */
function unshapedSections(data: Record<string, unknown>): string[] {
  // Each schema built only for a section the side writes (they are built on first use).
  const schemas: [string, () => z.ZodType][] = [['agent', agentSection.schema], ['judge', judgeSection.schema], ['simulator', simulatorSection.schema], ['meaning', meaningSchema]];
  return schemas.filter(([key, schema]) => data[key] !== undefined && data[key] !== null && shaped(schema(), data[key]) === undefined).map(([key]) => key);
}

/** Whether a setting's path is one that can change what is replayed or a verdict. */
function listed(setting: string): boolean {
  const section = sectionOf(setting);
  if (UNLISTED_SECTIONS.has(section)) return false;
  const keys = setting.split(/[.[\]]+/).filter((k) => k !== '');
  return !keys.some((k) => UNLISTED_KEYS.has(k));
}

/** An address as records show one (src/endpoint.ts): without its credentials, query, fragment or tokens. */
function shownAddress(v: string): string {
  // A `${NAME}` reference is not a URL yet: its text, cut the same way.
  return urlEndpoint(v) ?? hideEndpointTokens(v.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1'));
}

/** A mapping or list whose addresses (any text under an address's key) are shown as records show one. */
function withShownAddresses(value: unknown, address: boolean): unknown {
  if (typeof value === 'string') return address ? shownAddress(value) : value;
  if (Array.isArray(value)) return value.map((v) => withShownAddresses(v, address));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, withShownAddresses(v, address || ADDRESS_KEY.test(k))]));
  return value;
}

/** A value as a reviewer reads it: JSON, an address without its credentials, query, fragment or tokens. */
function shownValue(leaf: Leaf): string {
  const value = withShownAddresses(leaf.value, leaf.address);
  return line(JSON.stringify(value) ?? String(value), MAX_VALUE);
}

/** Why a side's text does not read as config.yml's settings, or null when it reads. */
function unreadable(text: string, path: string): { why: string } | { data: Record<string, unknown> } {
  const loaded = readYaml(path, text);
  if (loaded.src === null) {
    const at = loaded.errors.find((e) => e.line !== null)?.line ?? null;
    return { why: `does not read as YAML${at === null ? '' : ` (line ${at})`}` };
  }
  const data = loaded.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) return { why: 'is not a mapping of settings' };
  return { data: data as Record<string, unknown> };
}

/** Whether `path` is under `parent` (`judge.panel[0].model` is under `judge.panel` and `judge`). */
function under(path: string, parent: string): boolean {
  return path.startsWith(`${parent}.`) || path.startsWith(`${parent}[`);
}

/** What a value is, for a setting whose kind changed (a number now a mapping): one entry, not one for each of its keys. */
function kindOf(value: unknown): 'list' | 'mapping' | 'value' {
  return Array.isArray(value) ? 'list' : value !== null && typeof value === 'object' ? 'mapping' : 'value';
}

/**
 * config.yml's settings that differ between the base and the head, in the file's order (the head's,
 * then those only the base has), each old -> new. Compared by the value each has for the run: a
 * setting one side does not write has its default there (defaultsOf; `default` says which side's
 * value is one), so writing a default out is no edit, and "not set" is said only of a setting with
 * no default. A setting whose kind changed (a number now a mapping) is one entry, its whole value
 * on each side. A file that does not read on one side (or whose text GitHub did not give: over
 * 1 MB) is one entry, `unreadable`, saying why, and nothing else is compared; a file on neither
 * side, none.
 */
export async function configEdits(change: ChangedConfigFile): Promise<ConfigEdit[]> {
  const file = change.after?.path ?? change.before?.path;
  if (file === undefined) return [];
  return withYamlPackage(() => {
    const read = (side: ChangedConfigFile['before']): { why: string } | { data: Record<string, unknown> } =>
      side === null ? { data: {} } : side.text === null ? { why: TOO_LARGE } : unreadable(side.text, side.path);
    const was = read(change.before);
    const now = read(change.after);
    if ('why' in was || 'why' in now) {
      return [{ file, setting: null, change: 'unreadable', before: 'why' in was ? was.why : null, after: 'why' in now ? now.why : null }];
    }
    const sides = [was.data, now.data].map((data) => {
      // A section set to null is not given (every section's schema reads it so).
      const given = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
      const values = new Map<string, Leaf>();
      const nodes = new Map<string, unknown>();
      leaves(given, '', false, values, nodes);
      for (const [setting, read] of NULL_READS) {
        const leaf = values.get(setting);
        if (leaf === undefined || leaf.value !== null) continue;
        if (read !== undefined) values.set(setting, { ...leaf, value: read });
        else {
          values.delete(setting);
          nodes.delete(setting);
        }
      }
      for (const setting of ignoredAgentSettings(given)) {
        values.delete(setting);
        nodes.delete(setting);
      }
      return { values, nodes, defaults: defaultsOf(given) };
    }) as [Side, Side];
    const [before, after] = sides;
    // Where a setting's kind changed, the outermost such path stands for all under it.
    const retyped = [...after.nodes.keys()].filter((p) => before.nodes.has(p) && kindOf(before.nodes.get(p)) !== kindOf(after.nodes.get(p)));
    const outermost = retyped.filter((p) => !retyped.some((q) => under(p, q)));
    const settingOf = (p: string): string => outermost.find((q) => p === q || under(p, q)) ?? p;
    // A request body, response paths or a welcome body written on one side: the other side's (the preset's) compared key by key, a key only it has too.
    const bodies = ['agent.request.body', 'agent.response', 'agent.start.body', 'agent.start.response'];
    const preset = bodies.filter((p) => sides.some((s) => s.nodes.has(p)));
    // Not where a side's section does not load (its values for the run are not known; the loader says why).
    const unknown = new Set([was.data, now.data].flatMap(unshapedSections));
    const known = (k: string): boolean => !unknown.has(sectionOf(k)) && !(unknown.has('judge') && ['meaning', 'simulator'].includes(sectionOf(k)));
    const presetKeys = sides.flatMap((s) => [...s.defaults.keys()].filter((k) => preset.some((p) => under(k, p)) && known(k)));
    // A value neither side writes but the run's differs by (`judge: {}` added brings the judge's
    // provider, address and model, and the meaning check by the judge): compared as the run uses it.
    // A preset's bodies and paths are the preset's, named by `agent.preset`, unless a side writes its own (above).
    const derived = [after, before].flatMap((s) => [...s.defaults.entries()].filter(([k, v]) => kindOf(v) === 'value' && !bodies.some((p) => under(k, p)) && !JUDGE_COPY.test(k) && known(k)).map(([k]) => k));
    const settings = [...new Set([...after.values.keys(), ...before.values.keys(), ...presetKeys, ...derived].map(settingOf))].filter(listed);
    // An empty mapping written (`judge: {}`) whose entries have defaults: those are its values for the run.
    const emptyWithDefaults = (setting: string): boolean =>
      sides.some((s) => kindOf(s.values.get(setting)?.value) !== 'value') && sides.some((s) => [...s.defaults.keys()].some((k) => under(k, setting)));
    const edits: ConfigEdit[] = [];
    for (const setting of settings) {
      // An empty mapping or list on one side, one with entries (or with defaults: `judge: {}`) on the other: its entries are compared.
      if (!outermost.includes(setting) && (sides.some((s) => s.nodes.has(setting) && !s.values.has(setting)) || emptyWithDefaults(setting))) continue;
      const a = valueAt(before, setting, outermost.includes(setting));
      const b = valueAt(after, setting, outermost.includes(setting));
      // Not set on either side (no default, or a default of none: a persona path the preset does not read).
      const none = (l: Leaf | undefined): boolean => l === undefined || (l.defaulted === true && l.value === null);
      if (none(a) && none(b)) continue;
      if (a !== undefined && b !== undefined && JSON.stringify(a.value) === JSON.stringify(b.value)) continue;
      const secret = (a?.secret ?? false) || (b?.secret ?? false);
      const shownBefore = a === undefined || secret ? null : shownValue(a);
      const shownAfter = b === undefined || secret ? null : shownValue(b);
      // Two values that read the same once cut (another password in an address, another query): changed, not shown.
      if (secret || (shownBefore !== null && shownBefore === shownAfter)) {
        const isSet = (l: Leaf | undefined): 'set' | null => (l === undefined || l.value === null ? null : 'set');
        edits.push({ file, setting, change: 'secret', before: isSet(a), after: isSet(b) });
        continue;
      }
      // null: not set, with no default or a default of none (`agent.url`, `personas.unmockedTools`); a null written is shown as written.
      const shown = (l: Leaf | undefined, words: string | null): string | null => (l === undefined || (l.defaulted === true && l.value === null) ? null : words);
      const byDefault = (l: Leaf | undefined): boolean => l?.defaulted === true && l.value !== null;
      // Both by default: another setting changed it (`agent.preset`, a judge added), each side said so.
      const defaulted = byDefault(a) ? (byDefault(b) ? 'both' : 'before') : byDefault(b) ? 'after' : null;
      edits.push({ file, setting, change: 'setting', before: shown(a, shownBefore), after: shown(b, shownAfter), ...(defaulted === null ? {} : { default: defaulted }) });
    }
    return edits;
  });
}

type Side = { values: Map<string, Leaf>; nodes: Map<string, unknown>; defaults: Map<string, unknown> };

/**
 * A setting's value on one side: as written; the whole mapping or list when its kind changed
 * (`whole`), a credential when any value in it is one; its default when the side does not write
 * it; undefined when it has none.
 */
function valueAt(side: Side, setting: string, whole: boolean): Leaf | undefined {
  const value = side.nodes.get(setting);
  if (whole && kindOf(value) !== 'value') {
    const secret = [...side.values.values()].some((l) => l.secret && under(l.setting, setting));
    return { setting, value, secret, address: ADDRESS_KEY.test(setting) };
  }
  const written = side.values.get(setting);
  if (written !== undefined) return written;
  if (side.nodes.has(setting) || !side.defaults.has(setting)) return undefined;
  return { ...leafOf(setting, side.defaults.get(setting), secretPath(setting)), defaulted: true };
}
