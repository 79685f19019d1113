// The Node the CLI needs (src/node-version.ts): an older one gets one line and exit 2 from the
// entry (src/cli.ts) before the bundle loads, where Node 18 printed a SyntaxError under a screen of
// minified code (docs/cli.md, "The gate and the exit status"). Asserted at the function the entry asks.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_NODE, nodeTooOld } from '../../src/node-version.js';
import { quotedAndSaid } from '../support/troubleshooting.js';

describe('nodeTooOld', () => {
  it("is package.json's engines", () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${MIN_NODE}`);
  });

  it('says the Node found, the one needed and the fix, in one line, for a Node older than engines', () => {
    expect(nodeTooOld('18.20.8')).toBe(
      'agent-replay: this is Node 18.20.8, and agent-replay needs Node 20.18.1 or newer: install a newer Node (https://nodejs.org/en/download) and run it again',
    );
    quotedAndSaid(nodeTooOld('18.20.8')!, 'agent-replay: this is Node <version>, and agent-replay needs Node 20.18.1 or newer');
    // before crypto.hash (20.12) and before undici 7's 20.18.1, by each of the three numbers
    for (const old of ['20.11.1', '20.18.0', '16.20.2', 'v20.17.9']) expect(nodeTooOld(old), old).toContain(`this is Node ${old}, `);
  });

  it('says nothing for engines itself, a newer Node, or a version it cannot read (the CLI then starts)', () => {
    for (const ok of ['20.18.1', '20.18.2', '20.19.0', '21.0.0', '22.1.0', '24.21.0', 'v24.0.0-nightly2026', 'unknown', '']) expect(nodeTooOld(ok), ok).toBeNull();
    expect(nodeTooOld(process.versions.node)).toBeNull();
  });
});
