// Spend (docs/semantics.md#cost): what a run really asked for, shown beside the estimate (which stays an estimate
// in USD): "24 agent turns, 3 judge calls made", "0 agent turns answered in 3 requests (2 retries)". Never a
// bill, never an amount.

import type { Spend } from '../types.js';
import { thousands } from '../words.js';

function count(n: number, one: string, many: string): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/**
 * The agent's part: the turns it answered and, when it was sent more requests than that (retries, or
 * a request it did not answer), the requests and how many of them were retries: "24 agent turns",
 * "0 agent turns answered in 3 requests (2 retries)". A record without the requests' count (older,
 * or a test's client) has the turns and the retries.
 */
function agentText(spend: Spend, retried: (n: number | undefined) => string): string {
  const turns = count(spend.agentTurns, 'agent turn', 'agent turns');
  const requests = spend.agentRequests;
  if (requests === undefined || (requests === spend.agentTurns && spend.agentRetries === 0)) return `${turns}${retried(spend.agentRetries)}`;
  return `${turns} answered in ${count(requests, 'request', 'requests')}${retried(spend.agentRetries)}`;
}

/** Null for records written before spend was counted. */
export function spendText(spend: Spend | undefined): string | null {
  if (spend === undefined) return null;
  const retried = (n: number | undefined): string => (n !== undefined && n > 0 ? ` (${count(n, 'retry', 'retries')})` : '');
  const parts = [agentText(spend, retried)];
  // The judge's retries count the meaning judge's too (docs/meaning.md, "Costs"): beside meaning
  // calls they are said after those, as both's, never as one judge call's many retries.
  const meaningAsked = (spend.meaningCalls ?? 0) > 0;
  if (spend.judgeCalls > 0 || spend.judgeReused > 0) {
    parts.push(`${count(spend.judgeCalls, 'judge call', 'judge calls')} made${meaningAsked ? '' : retried(spend.judgeRetries)}`);
  }
  if (spend.judgeReused > 0) parts.push(`${count(spend.judgeReused, 'judge result', 'judge results')} reused`);
  // Simulated users (docs/simulated-users.md): only when a simulated script called the simulator or replayed a baseline.
  const simulated = spend.simulatorCalls ?? 0;
  if (simulated > 0 || (spend.simulatorRetries ?? 0) > 0) parts.push(`${count(simulated, 'simulator call', 'simulator calls')} made${retried(spend.simulatorRetries)}`);
  // Meaning (docs/meaning.md, "Cost"): only when a reply differed from its baseline.
  const meaning = [
    spend.meaningCalls ? `${count(spend.meaningCalls, 'call', 'calls')} made` : null,
    spend.meaningReused ? `${thousands(spend.meaningReused)} reused` : null,
    spend.meaningAvoided ? `${thousands(spend.meaningAvoided)} decided without a model` : null,
  ].filter((p) => p !== null);
  if (meaning.length > 0) parts.push(`meaning: ${meaning.join(', ')}`);
  const judgeRetries = spend.judgeRetries ?? 0;
  if (meaningAsked && judgeRetries > 0) parts.push(`${count(judgeRetries, 'retry', 'retries')} of ${spend.judgeCalls > 0 ? 'judge and meaning calls' : 'meaning calls'}`);
  const replayed = spend.baselineTurns ?? 0;
  if (replayed > 0) parts.push(`${count(replayed, 'user turn', 'user turns')} replayed from baselines`);
  return parts.join(', ');
}
