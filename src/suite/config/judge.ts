// config.yml `judge:` (docs/judges.md): the schema of the section as written, and its resolution
// into `config.judge`: the provider's defaults (JUDGE_DEFAULTS and JUDGE_CLIENT_DEFAULTS of
// src/config.ts), then the file's values, a panel's members, and warnings when no API key can work.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { JUDGE_CLIENT_DEFAULTS, JUDGE_DEFAULTS, panelMemberConfig, type Config, type JudgeConfig, type JudgeProvider, type PanelMemberSettings } from '../../config.js';
import { JUDGE_PROVIDERS } from '../../types.js';
import { concurrencyInt, ms, retriesInt, unsure, urlIssue, type Resolution } from './shared.js';

/** The start of the warning for a judge with no key at its provider's own address: dropped when a flag or an input gives a key or another address (src/suite/index.ts). */
export const NO_JUDGE_KEY = 'judge.apiKey is not set: ';

/** The sizes a panel of judges may have (docs/judges.md, "Panels"): odd, so that a majority always exists. */
const PANEL_SIZES = [3, 5] as const;

export const schema = onFirstUse(() => {
  const judgeKeys = {
    provider: z.enum(JUDGE_PROVIDERS).optional(),
    baseUrl: z.string().optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().nullable().optional(),
    timeoutMs: ms(1).optional(),
    retries: retriesInt().optional(),
    backoffMs: ms(0).optional(),
    concurrency: concurrencyInt().optional(),
    label: z.string().nullable().optional(),
  };
  return z.strictObject({
    ...judgeKeys,
    // A panel of judges: each member sets the keys of a judge it changes (docs/judges.md, "Panels").
    panel: z.array(z.strictObject(judgeKeys)).nullable().optional(),
  });
});

type JudgeSection = z.infer<ReturnType<typeof schema>>;

/**
 * The keys that say whether a judge has an API key that can work: no key is warned about while one
 * of them has a shape error of its own (a panel left out would leave the judge alone).
 */
const KEY_KEYS = ['apiKey', 'baseUrl', 'provider'] as const;
const JUDGE_KEY_PATHS = [...KEY_KEYS.map((key) => ['judge', key]), ['judge', 'panel']];

/** Resolves `judge:` into `config.judge`; absent or null: no judge (judge assertions are not evaluated). */
export function resolve(config: Config, resolved: JudgeSection | null | undefined, written: JudgeSection | null | undefined, r: Resolution): void {
  if (resolved) config.judge = resolveJudge(resolved, written ?? {}, r);
}

/**
 * The judge of the keys given, each key not given its provider's default (JUDGE_DEFAULTS,
 * JUDGE_CLIENT_DEFAULTS of src/config.ts); `baseUrl` as given, unchecked; no panel. The suite
 * edits compare config.yml's settings with these defaults applied (src/suite/config-edits.ts).
 */
export function judgeWithDefaults(j: Omit<JudgeSection, 'panel'>): JudgeConfig {
  const provider: JudgeProvider = j.provider ?? 'openai';
  return {
    provider,
    baseUrl: j.baseUrl ?? JUDGE_DEFAULTS[provider].baseUrl,
    model: j.model ?? JUDGE_DEFAULTS[provider].model,
    apiKey: j.apiKey === undefined || j.apiKey === '' ? null : j.apiKey,
    timeoutMs: j.timeoutMs ?? JUDGE_CLIENT_DEFAULTS.timeoutMs,
    retries: j.retries ?? JUDGE_CLIENT_DEFAULTS.retries,
    backoffMs: j.backoffMs ?? JUDGE_CLIENT_DEFAULTS.backoffMs,
    concurrency: j.concurrency ?? JUDGE_CLIENT_DEFAULTS.concurrency,
    label: j.label === undefined || j.label === '' ? null : j.label,
  };
}

/** judge: the provider's defaults, then the file's values; a warning when no API key can work. */
function resolveJudge(j: JudgeSection, written: JudgeSection, r: Resolution): JudgeConfig {
  const judge = judgeWithDefaults({ ...j, baseUrl: undefined });
  const provider = judge.provider;
  if (j.baseUrl !== undefined && !unsure(r, ['judge', 'baseUrl'])) {
    const issue = urlIssue('judge.baseUrl', written.baseUrl ?? '', j.baseUrl, { what: 'the API base address', key: 'baseUrl', example: JUDGE_DEFAULTS[provider].baseUrl, apiBase: true });
    if (issue !== null) {
      r.errors.push(r.issueAt(['judge', 'baseUrl'], issue.message, issue.fix));
    } else {
      judge.baseUrl = j.baseUrl.replace(/\/+$/, '');
    }
  }
  if (j.panel) {
    judge.panel = resolvePanel(j.panel, written.panel ?? [], judge, r);
    return judge;
  }
  if (judge.apiKey === null && judge.baseUrl === JUDGE_DEFAULTS[provider].baseUrl && !unsure(r, ...JUDGE_KEY_PATHS)) {
    const words = noJudgeKeyWords(provider);
    r.warnings.push(r.issueAt(['judge'], words.message, words.fix));
  }
  return judge;
}

/**
 * The warning of a judge with no key at its provider's own address (docs/troubleshooting.md,
 * "Configuration errors"): the provider in use named; when the judge-provider input chose it over
 * the config file's (`switchedFrom`: its provider, and the file's name, config.yml or config.yaml),
 * said so, with that input's neighbour judge-api-key as the fix.
 */
export function noJudgeKeyWords(provider: JudgeProvider, switchedFrom?: { provider: JudgeProvider; file: string }): { message: string; fix: string } {
  const fix = 'add apiKey: ${JUDGE_API_KEY} under judge and export JUDGE_API_KEY (a repository secret in a workflow)';
  if (switchedFrom === undefined) return { message: `${NO_JUDGE_KEY}${provider} will refuse the calls, so judge assertions are not evaluated`, fix };
  return {
    message: `${NO_JUDGE_KEY}${provider} (the judge-provider input; ${switchedFrom.file}'s judge is ${switchedFrom.provider}) will refuse the calls, so judge assertions are not evaluated`,
    fix: `give ${provider}'s key with the judge-api-key input (judge-api-key: \${{ secrets.${provider.toUpperCase()}_API_KEY }}), or ${fix}`,
  };
}

/** An address as a warning shows it: its origin, never a path or a user and password (either may hold a token). */
function originOf(url: string): string {
  return URL.canParse(url) ? new URL(url).origin : url;
}

/**
 * The judge-provider input chose another provider than the config file's judge (`from`; `file`
 * the file's name, config.yml or config.yaml), and the file's judge.baseUrl, not `from`'s own API,
 * is kept (docs/judges.md, "The judge-provider input"): said before any call, with the input that
 * chooses the address as the fix.
 */
export function keptAddressWords(provider: JudgeProvider, from: JudgeProvider, baseUrl: string, file: string): { message: string; fix: string } {
  return {
    message: `judge.baseUrl ${originOf(baseUrl)} is kept for ${provider}, the judge-provider input's provider (${file}'s judge is ${from}): the judge's calls go there in ${provider}'s API form, not to ${provider}'s own API`,
    fix: `give the judge's address with the judge-base-url input (${JUDGE_DEFAULTS[provider].baseUrl} is ${provider}'s own API), or remove the judge-provider input if that address serves only ${from}`,
  };
}

/**
 * The config file's judge.apiKey (`file`: config.yml, or config.yaml), written for `from` at the
 * file's address, is not sent to the provider the judge-provider input chose at another address (a
 * key belongs to one vendor): said before any call, with the judge-api-key input as the fix.
 * `baseUrl` is the address the calls go to.
 */
export function droppedKeyWords(provider: JudgeProvider, from: JudgeProvider, baseUrl: string, panel: boolean, file: string): { message: string; fix: string } {
  const own = baseUrl === JUDGE_DEFAULTS[provider].baseUrl;
  const refused = panel ? `will refuse the judge's calls and those of the panel members that take its key` : 'will refuse the calls, so judge assertions are not evaluated';
  const key = `judge-api-key: \${{ secrets.${provider.toUpperCase()}_API_KEY }}`;
  return own
    ? {
        message: `judge.apiKey of ${file} is ${from}'s key: it is not sent to ${provider}, the judge-provider input's provider (${file}'s judge is ${from}), and ${provider} ${refused}`,
        fix: `give ${provider}'s key with the judge-api-key input (${key}), or remove the judge-provider input to judge with ${from}`,
      }
    : {
        message: `judge.apiKey of ${file} is ${from}'s key: it is not sent to ${originOf(baseUrl)} (the judge-provider input's ${provider}, at the judge-base-url input's address), so the judge's calls carry no key`,
        fix: `give the key that address expects with the judge-api-key input; an address that needs no key (a local model server) needs nothing more`,
      };
}

type PanelSection = NonNullable<JudgeSection['panel']>;

/**
 * judge.panel: 3 or 5 members, each keeping only the keys it sets (the rest are the judge's when
 * the panel is used: `panelMembers` in src/config.ts, so that an Action input that changes the judge changes
 * the members that inherit from it). A member's baseUrl is checked like the judge's; a member that
 * ends up with no API key for a provider's own address is warned about like the judge.
 */
function resolvePanel(panel: PanelSection, written: PanelSection, judge: JudgeConfig, r: Resolution): PanelMemberSettings[] {
  if (!(PANEL_SIZES as readonly number[]).includes(panel.length)) {
    r.errors.push(
      r.issueAt(
        ['judge', 'panel'],
        `judge.panel has ${panel.length} member${panel.length === 1 ? '' : 's'}; a panel has ${PANEL_SIZES.join(' or ')} members (an odd number, so that a majority always exists)`,
        panel.length < 3
          ? 'add members until there are 3, or remove judge.panel to use the judge alone'
          : panel.length === 4
            ? 'remove one member to make 3, or add one to make 5'
            : `remove ${panel.length - 5} member${panel.length === 6 ? '' : 's'} to make 5`,
      ),
    );
  }
  return panel.map((m, i) => {
    const settings: PanelMemberSettings = {};
    for (const key of ['provider', 'model', 'timeoutMs', 'retries', 'backoffMs', 'concurrency'] as const) {
      if (m[key] !== undefined) (settings as Record<string, unknown>)[key] = m[key];
    }
    if (m.apiKey !== undefined) settings.apiKey = m.apiKey === '' ? null : m.apiKey;
    if (m.label !== undefined && m.label !== null && m.label !== '') settings.label = m.label;
    if (m.baseUrl !== undefined && !unsure(r, ['judge', 'panel', i, 'baseUrl'])) {
      const provider = m.provider ?? judge.provider;
      const issue = urlIssue(`judge.panel[${i}].baseUrl`, written[i]?.baseUrl ?? '', m.baseUrl, { what: 'the API base address', key: 'baseUrl', example: JUDGE_DEFAULTS[provider].baseUrl, apiBase: true });
      if (issue !== null) {
        r.errors.push(r.issueAt(['judge', 'panel', i, 'baseUrl'], issue.message, issue.fix));
      } else {
        settings.baseUrl = m.baseUrl.replace(/\/+$/, '');
      }
    }
    const member = panelMemberConfig(judge, settings);
    const memberKeyPaths = KEY_KEYS.flatMap((key) => [['judge', key], ['judge', 'panel', i, key]]);
    // A model left out for its shape error (`modle: a`, said already) is not named as the default it would be.
    const shownMember = unsure(r, ['judge', 'model'], ['judge', 'panel', i, 'model']) ? member.provider : `${member.provider} ${member.model}`;
    if (member.apiKey === null && member.baseUrl === JUDGE_DEFAULTS[member.provider].baseUrl && !unsure(r, ...memberKeyPaths)) {
      r.warnings.push(
        r.issueAt(
          ['judge', 'panel', i],
          `judge.panel[${i}] (${shownMember}) has no API key: ${member.provider} will refuse its calls and the panel may not reach a majority`,
          member.provider === judge.provider
            ? 'add apiKey: ${JUDGE_API_KEY} under judge (the members inherit it) or under this member'
            : `add apiKey: \${${member.provider.toUpperCase()}_API_KEY} under this member (a member of another provider than the judge's does not inherit the judge's key)`,
        ),
      );
    }
    return settings;
  });
}
