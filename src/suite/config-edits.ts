// What a pull request changed in its suite's config.yml that changes what is replayed or how
// verdicts are reached (docs/action.md, "The PR comment", "Suite edited"): the agent it sends to and
// how, the judge (its model, panel, address, key), the meaning judge, the simulated users' model,
// the suite's `repeat`, latency and statistics thresholds, unmocked tools, traces. Compared as
// written, setting by setting, before `${NAME}` is read (the base's environment is not known): a
// reference is a name and is shown; a credential (an API key, a token, a header's value) is
// compared and said changed, never shown; an address is shown as records show one (src/endpoint.ts).
// Settings that change no verdict are not listed: timeouts, retries, backoff, concurrency, the
// wait for the agent, a judge's label, regex limits, the cost cap and prices, coverage. Pure.

import type { ConfigEdit } from '../types.js';
import { hideEndpointTokens, looksLikeToken, urlEndpoint } from '../endpoint.js';
import { line } from '../assertions/format.js';
import { SECRET_KEY } from './config-file.js';
import { readYaml, withYamlPackage } from './yaml/index.js';

/** config.yml (or config.yaml) at the base and at the head: its path on each side, its text (null: not there). */
export interface ChangedConfigFile {
  before: { path: string; text: string } | null;
  after: { path: string; text: string } | null;
}

/** Sections none of whose settings change a verdict (docs/action.md, "Suite edited"). */
const UNLISTED_SECTIONS = new Set(['cost', 'coverage', 'regex']);
/** Keys that change no verdict wherever they are (the agent's, the judge's, a panel member's). */
const UNLISTED_KEYS = new Set(['timeoutMs', 'retries', 'backoffMs', 'concurrency', 'waitForAgent', 'label']);

/** How long a value as written may be in a line (the surfaces clip it again). */
const MAX_VALUE = 200;

type Leaf = { setting: string; value: unknown; secret: boolean; address: boolean };

/** Every value the file sets, by its path (`judge.panel[0].model`): mappings and lists walked to their values. */
function leaves(data: unknown, path: string, secret: boolean, out: Map<string, Leaf>): void {
  if (Array.isArray(data)) {
    data.forEach((v, i) => leaves(v, `${path}[${i}]`, secret, out));
    if (data.length === 0) out.set(path, { setting: path, value: [], secret, address: false });
    return;
  }
  if (data !== null && typeof data === 'object') {
    const entries = Object.entries(data as Record<string, unknown>);
    for (const [key, value] of entries) {
      const at = path === '' ? key : `${path}.${key}`;
      // A header's value is a credential as often as not (Authorization, X-Api-Key, a tenant's key).
      leaves(value, at, secret || SECRET_KEY.test(key) || path === 'agent.headers', out);
    }
    if (entries.length === 0 && path !== '') out.set(path, { setting: path, value: {}, secret, address: false });
    return;
  }
  const key = /([A-Za-z0-9_-]+)$/.exec(path)?.[1] ?? '';
  const address = key === 'url' || key === 'baseUrl';
  // A value that reads as a key under a key named otherwise (a request body's `key: sk-...`): a credential all the same.
  const tokenLike = !address && typeof data === 'string' && data.split(/[\s:=,;"']+/).some(looksLikeToken);
  out.set(path, { setting: path, value: data, secret: secret || tokenLike, address });
}

/** Whether a setting's path is one that can change what is replayed or a verdict. */
function listed(setting: string): boolean {
  const section = /^[^.[]+/.exec(setting)?.[0] ?? '';
  if (UNLISTED_SECTIONS.has(section)) return false;
  const keys = setting.split(/[.[\]]+/).filter((k) => k !== '');
  return !keys.some((k) => UNLISTED_KEYS.has(k));
}

/** A value as a reviewer reads it: JSON, an address without its credentials, query, fragment or tokens. */
function shownValue(leaf: Leaf): string {
  if (leaf.address && typeof leaf.value === 'string') {
    const v = leaf.value;
    // A `${NAME}` reference is not a URL yet: its text, cut the same way.
    const shown = urlEndpoint(v) ?? hideEndpointTokens(v.replace(/[?#][\s\S]*$/, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1'));
    return line(JSON.stringify(shown), MAX_VALUE);
  }
  return line(JSON.stringify(leaf.value) ?? String(leaf.value), MAX_VALUE);
}

/** Why a side's text does not read as config.yml's settings, or null when it reads. */
function unreadable(text: string, path: string): { why: string } | { data: unknown } {
  const loaded = readYaml(path, text);
  if (loaded.src === null) {
    const at = loaded.errors.find((e) => e.line !== null)?.line ?? null;
    return { why: `does not read as YAML${at === null ? '' : ` (line ${at})`}` };
  }
  const data = loaded.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) return { why: 'is not a mapping of settings' };
  return { data };
}

/**
 * config.yml's settings that differ between the base and the head, in the file's order (the head's,
 * then those only the base has), each old -> new. A file that does not read on one side is one
 * entry, `unreadable`, saying why, and nothing else is compared; a file on neither side, none.
 */
export async function configEdits(change: ChangedConfigFile): Promise<ConfigEdit[]> {
  const file = change.after?.path ?? change.before?.path;
  if (file === undefined) return [];
  return withYamlPackage(() => {
    const read = (side: { path: string; text: string } | null): { why: string } | { data: unknown } => (side === null ? { data: {} } : unreadable(side.text, side.path));
    const was = read(change.before);
    const now = read(change.after);
    if ('why' in was || 'why' in now) {
      return [{ file, setting: null, change: 'unreadable', before: 'why' in was ? was.why : null, after: 'why' in now ? now.why : null }];
    }
    const before = new Map<string, Leaf>();
    const after = new Map<string, Leaf>();
    leaves(was.data, '', false, before);
    leaves(now.data, '', false, after);
    const edits: ConfigEdit[] = [];
    const settings = [...new Set([...after.keys(), ...before.keys()])].filter(listed);
    for (const setting of settings) {
      const a = before.get(setting);
      const b = after.get(setting);
      if (a !== undefined && b !== undefined && JSON.stringify(a.value) === JSON.stringify(b.value)) continue;
      const secret = (a?.secret ?? false) || (b?.secret ?? false);
      const shownBefore = a === undefined || secret ? null : shownValue(a);
      const shownAfter = b === undefined || secret ? null : shownValue(b);
      // Two values that read the same once cut (another password in an address, another query): changed, not shown.
      if (secret || (shownBefore !== null && shownBefore === shownAfter)) {
        edits.push({ file, setting, change: 'secret', before: a === undefined ? null : 'set', after: b === undefined ? null : 'set' });
        continue;
      }
      edits.push({ file, setting, change: 'setting', before: shownBefore, after: shownAfter });
    }
    return edits;
  });
}
