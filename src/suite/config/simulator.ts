// config.yml `simulator:` (docs/simulated-users.md): the model that plays simulated users. Only the
// keys given are kept; each key not given is the judge's, resolved when the run starts
// (src/simulator/config.ts), after the command-line and action-input overrides of the judge.

import * as z from 'zod';
import { onFirstUse } from '../../patterns.js';
import { JUDGE_DEFAULTS, type Config, type SimulatorSettings } from '../../config.js';
import { JUDGE_PROVIDERS } from '../../types.js';
import { unsure, urlIssue, type Resolution } from './shared.js';

export const schema = onFirstUse(() =>
  z.strictObject({
    provider: z.enum(JUDGE_PROVIDERS).optional(),
    baseUrl: z.string().optional(),
    model: z.string().min(1).optional(),
    apiKey: z.string().nullable().optional(),
  }),
);

type SimulatorSection = z.infer<ReturnType<typeof schema>>;

/** Resolves `simulator:` into `config.simulator`; absent or null: the judge's model plays the users. */
export function resolve(config: Config, resolved: SimulatorSection | null | undefined, written: SimulatorSection | null | undefined, r: Resolution): void {
  if (resolved) config.simulator = resolveSimulatorSettings(resolved, written ?? {}, r);
}

/** simulator: only the keys given (the rest is the judge's when the run starts); a base URL must be http(s). */
function resolveSimulatorSettings(s: SimulatorSection, written: SimulatorSection, r: Resolution): SimulatorSettings {
  const out: SimulatorSettings = {};
  if (s.provider !== undefined) out.provider = s.provider;
  if (s.model !== undefined) out.model = s.model;
  if (s.apiKey !== undefined) out.apiKey = s.apiKey === '' ? null : s.apiKey;
  if (s.baseUrl !== undefined && !unsure(r, ['simulator', 'baseUrl'])) {
    const issue = urlIssue('simulator.baseUrl', written.baseUrl ?? '', s.baseUrl, { what: 'the API base address', key: 'baseUrl', example: JUDGE_DEFAULTS[s.provider ?? 'openai'].baseUrl, apiBase: true });
    if (issue !== null) r.errors.push(r.issueAt(['simulator', 'baseUrl'], issue.message, issue.fix));
    else out.baseUrl = s.baseUrl.replace(/\/+$/, '');
  }
  return out;
}
