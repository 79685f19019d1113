// The Node the CLI needs: package.json's engines, `>=20.18.1` (undici 7's; a test keeps the two
// equal). On an older Node the bundle does not load: `node:crypto` has no `hash` before Node 20.12,
// and Node printed a SyntaxError under a screen of minified code. The entry (src/cli.ts) asks this
// first, before it loads the rest, and prints the one line (docs/cli.md, "The gate and the exit status").

export const MIN_NODE = '20.18.1';

/** The version's first three numbers ("v18.20.8" -> [18, 20, 8]); null when it is not written so. */
function numbers(version: string): [number, number, number] | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m === null ? null : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/**
 * The line to print when Node `version` (process.versions.node) is older than `minimum`; null when
 * it is that one or newer, or not a version this can read (the CLI then starts as it would).
 */
export function nodeTooOld(version: string, minimum: string = MIN_NODE): string | null {
  const [have, need] = [numbers(version), numbers(minimum)];
  if (have === null || need === null) return null;
  for (let i = 0; i < 3; i++) {
    if (have[i]! > need[i]!) return null;
    if (have[i]! < need[i]!) return `agent-replay: this is Node ${version}, and agent-replay needs Node ${minimum} or newer: install a newer Node (https://nodejs.org/en/download) and run it again`;
  }
  return null;
}
