// "A replay starts": published on a diagnostics channel when the replay of a run begins, after the
// suite is loaded and checked. The process's runtime settings listen to it (src/runtime.ts: the
// young generation grows for the replay, not for the load); nothing is published when no one listens.
import { channel } from 'node:diagnostics_channel';

export const replayStarts = channel('agent-replay:replay-starts');
