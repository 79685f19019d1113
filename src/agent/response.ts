// Mapping a parsed agent response to a reply, route, ended flag and off-track signals.

import type { AgentMapping } from '../config.js';
import type { Route } from '../types.js';
import { describeFound, readPath } from './template.js';

export interface MappedTurn {
  reply: string;
  route: Route | null;
  ended: boolean;
  offTrack: unknown[];
}

export type MapResult = { ok: true; turn: MappedTurn } | { ok: false; error: string };

/** The parts of a response that do not depend on the reply (used for the welcome turn too). */
export function mapSignals(json: unknown, mapping: AgentMapping): Omit<MappedTurn, 'reply'> {
  let route: Route | null = null;
  if (mapping.conversation !== null && mapping.stage !== null) {
    const conversation = readPath(json, mapping.conversation);
    const stage = readPath(json, mapping.stage);
    if (typeof conversation === 'string' && typeof stage === 'string') route = { conversation, stage };
  }
  const ended = mapping.ended === null ? false : readPath(json, mapping.ended) === true;
  const offTrackValue = mapping.offTrack === null ? undefined : readPath(json, mapping.offTrack);
  const offTrack = Array.isArray(offTrackValue) ? offTrackValue : [];
  return { route, ended, offTrack };
}

/**
 * Maps a response with the configured dotted paths. The reply must be a string; route is set only
 * when both its paths are configured and both hold strings; `ended` is true only for a boolean
 * true; `offTrack` is the array at its path, or [].
 */
export function mapResponse(json: unknown, mapping: AgentMapping): MapResult {
  const reply = readPath(json, mapping.reply);
  if (typeof reply !== 'string') {
    return { ok: false, error: `response has no string at "${mapping.reply}" (found ${describeFound(reply)})` };
  }
  return { ok: true, turn: { reply, ...mapSignals(json, mapping) } };
}
