// The label a check's or report's comment names (docs/action.md, "Accept: the label commits the reviewed replies"): the accept
// workflow's accept-label, read from the checkout's .github/workflows, since it is the label that
// accepts. It was this step's own accept-label, so a repository that renamed the label in its accept
// workflow alone was told to apply accept-baseline, which accepts nothing. In process: real files
// in a temporary folder, the step's log read from stdout.

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { commentAcceptLabel } from '../../src/action/publish.js';
import { tempDir } from '../support/temp.js';

afterEach(() => vi.restoreAllMocks());

/** The step's log lines written while `f` runs (@actions/core writes its commands to stdout), and what it returned. */
async function logged<T>(f: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(...String(chunk).split(/\r?\n/).filter((l) => l !== ''));
    return true;
  });
  const value = await f();
  vi.restoreAllMocks();
  return { value, lines };
}

/** An accept workflow as docs/action.md's recipe writes it, its job's if: and its step's accept-label given. */
const acceptWorkflow = (ifLabel: string, label: string | null): string =>
  `on: { pull_request_target: { types: [labeled] } }\njobs:\n  accept:\n    if: github.event.label.name == '${ifLabel}'\n    runs-on: ubuntu-latest\n    steps:\n      - uses: agent-replay/agent-replay@v0.1.0\n        with:\n          mode: accept\n${label === null ? '' : `          accept-label: ${label}\n`}`;

/** A checkout with a suite folder and, when given, an accept workflow; the suite folder's path. */
async function checkout(workflow: string | null): Promise<string> {
  const root = await tempDir('agent-replay-comment-label-');
  await mkdir(join(root, '.git'));
  await mkdir(join(root, '.agent-replay'));
  if (workflow !== null) {
    await mkdir(join(root, '.github', 'workflows'), { recursive: true });
    await writeFile(join(root, '.github', 'workflows', 'agent-replay-accept.yml'), workflow);
  }
  return join(root, '.agent-replay');
}

describe("the accept label a check's comment names", () => {
  it("is the accept workflow's, which accepts, where this step's differs (was: this step's, accept-baseline)", async () => {
    const suite = await checkout(acceptWorkflow('approve-replies', 'approve-replies'));
    // This step's is the default: the accept workflow's, said in the log.
    const renamed = await logged(() => commentAcceptLabel('accept-baseline', suite));
    expect(renamed.value).toBe('approve-replies');
    expect(renamed.lines).toEqual(['accept label: the comment names approve-replies, the accept-label of the accept step in .github/workflows/agent-replay-accept.yml (this step\'s is the default, accept-baseline)']);
    // This step's was set to another label on purpose: warned, at the accept workflow's file.
    const set = await logged(() => commentAcceptLabel('ok to accept', suite));
    expect(set.value).toBe('approve-replies');
    expect(set.lines).toEqual([
      '::warning file=.github/workflows/agent-replay-accept.yml::accept label: the comment names approve-replies, the accept-label of the accept step in .github/workflows/agent-replay-accept.yml, not this step\'s "ok to accept": give every step that names the label the same accept-label',
    ]);
    // The same label, in another case (GitHub matches labels ignoring case): this step's, nothing said.
    expect(await logged(() => commentAcceptLabel('Approve-Replies', suite))).toEqual({ value: 'Approve-Replies', lines: [] });
  });

  it('names a label on its one line: a U+2028 in it (a space to /\\s/, so quoted) as its escape, not a line break of the warning', async () => {
    // The accept workflow's label from its YAML (a double-quoted escape), this step's from its input.
    const suite = await checkout(acceptWorkflow('approve\\u2028replies', '"approve\\u2028replies"'));
    const r = await logged(() => commentAcceptLabel('ok\u2028to accept', suite));
    expect(r.value).toBe('approve\u2028replies');
    // JSON.stringify left U+2028 as it is: @actions/core escapes only \r and \n, so the log showed the label over two lines.
    // The if:'s '...' holds no escape (its label is the six characters \u2028), so neither accepts: the fix names the label on its line.
    expect(r.lines).toEqual([
      String.raw`::warning file=.github/workflows/agent-replay-accept.yml::accept label: the accept job of .github/workflows/agent-replay-accept.yml runs only for the approve\u2028replies label (its if:), and its agent-replay step accepts the "approve\u2028replies" label (its accept-label): neither accepts anything. Rename them together: if: github.event.label.name == 'approve ⏎ replies'`,
      String.raw`::warning file=.github/workflows/agent-replay-accept.yml::accept label: the comment names "approve\u2028replies", the accept-label of the accept step in .github/workflows/agent-replay-accept.yml, not this step's "ok\u2028to accept": give every step that names the label the same accept-label`,
    ]);
    for (const line of r.lines) expect(line).not.toMatch(/[\u2028\u2029]/);
  });

  it("is this step's own where the workflows do not tell one, and the default when the accept step gives none", async () => {
    const bare = await checkout(null);
    expect(await logged(() => commentAcceptLabel('approve-replies', bare))).toEqual({ value: 'approve-replies', lines: [] });
    const unnamed = await checkout(acceptWorkflow('accept-baseline', '${{ vars.ACCEPT_LABEL }}'));
    expect(await logged(() => commentAcceptLabel('approve-replies', unnamed))).toEqual({ value: 'approve-replies', lines: [] });
    const defaulted = await checkout(acceptWorkflow('accept-baseline', null));
    expect(await logged(() => commentAcceptLabel('approve-replies', defaulted))).toMatchObject({ value: 'accept-baseline', lines: [expect.stringContaining("not this step's approve-replies")] });
  });

  it("warns when the accept job's if: waits for another label than its step accepts: neither accepts", async () => {
    // accept-label renamed, the recipe's if: left as it was.
    const suite = await checkout(acceptWorkflow('accept-baseline', 'approve-replies'));
    const r = await logged(() => commentAcceptLabel('approve-replies', suite));
    expect(r.value).toBe('approve-replies');
    expect(r.lines).toEqual([
      "::warning file=.github/workflows/agent-replay-accept.yml::accept label: the accept job of .github/workflows/agent-replay-accept.yml runs only for the accept-baseline label (its if:), and its agent-replay step accepts the approve-replies label (its accept-label): neither accepts anything. Rename them together: if: github.event.label.name == 'approve-replies'",
    ]);
    // The step's own if: the same.
    const step = await checkout(acceptWorkflow('x', 'approve-replies').replace("    if: github.event.label.name == 'x'\n", '').replace('      - uses:', "      - if: ${{ github.event.label.name == 'accept-baseline' }}\n        uses:"));
    expect((await logged(() => commentAcceptLabel('approve-replies', step))).lines).toEqual([expect.stringContaining('runs only for the accept-baseline label (its if:)')]);
    // The if: in another case is the same label (GitHub's == compares text ignoring case).
    const cased = await checkout(acceptWorkflow('Approve-Replies', 'approve-replies'));
    expect(await logged(() => commentAcceptLabel('approve-replies', cased))).toEqual({ value: 'approve-replies', lines: [] });
  });
});
