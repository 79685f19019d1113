// A judge, simulator or meaning judge whose connection never opened (no route to its host, no network,
// no connection in time, any other connection error): the fix names its address and that it runs, as the
// agent's does for the same codes (src/agent/http-client.ts, unreachedFix), never its model and key, which
// cause none of these (docs/troubleshooting.md, "Not evaluated"). The reasons are in the clients' own words
// (src/http/error-code.ts), as src/judge/http.ts says them.

import { describe, expect, it } from 'vitest';
import { fixtureRecord } from '../support/fixture-record.js';
import { causeOf, groupCauses, MEANING_SETTINGS, modelDownHint } from '../../src/evaluate/index.js';
import { connectionFailureText, otherNetworkFailureText } from '../../src/http/error-code.js';
import type { FixtureRecord, PersonaRecord } from '../../src/types.js';

const URL_ = 'https://preview-42.example.com/api/chat';

/** Each connection that never opened, as the judge's client words it. */
const reasons: [string, string][] = [
  ['EHOSTUNREACH', connectionFailureText('EHOSTUNREACH', '10.0.0.9:443') ?? ''],
  ['ENETUNREACH', connectionFailureText('ENETUNREACH', '[2001:db8::9]:443') ?? ''],
  ['ETIMEDOUT', connectionFailureText('ETIMEDOUT', '10.0.0.9:443') ?? ''],
  ['a connection error', otherNetworkFailureText(Object.assign(new Error('write EPROTO'), { code: 'EPROTO' })) ?? ''],
];

describe('a model whose connection never opened: its address and that it runs, never its model and key', () => {
  it.each(reasons)('%s', (_code, words) => {
    expect(words).toMatch(/\([A-Z]+\)$/);
    // The judge: an item's criterion not evaluated, and a panel member's.
    const judged = fixtureRecord({ label: 'x', verdict: 'not_evaluated', detail: `judge unreachable: ${words} after 3 attempts` }, { drift: { reply: 'same', route: 'same', verdict: 'still_passing' } }) as FixtureRecord;
    const [group] = groupCauses([judged], URL_);
    expect(group?.hint).toBe('check judge-base-url (judge.baseUrl) and that the judge is running');
    expect(group?.what).toBe(`judge unreachable: ${words}`);
    // The simulator: a script's fault.
    const script = { label: 's', errored: false, verdict: 'not_evaluated', checks: [{ status: 'not_evaluated', detail: `simulator unreachable: ${words}` }] } as unknown as PersonaRecord;
    expect(causeOf(script, null)?.hint).toBe('check simulator.baseUrl (else judge-base-url (judge.baseUrl)) and that the simulator is running');
    // The meaning judge: the shared line of replies whose meaning it could not check.
    expect(modelDownHint(words, MEANING_SETTINGS)).toBe('check meaning.baseUrl (else judge-base-url (judge.baseUrl)) and that the meaning judge is running');
  });
});
