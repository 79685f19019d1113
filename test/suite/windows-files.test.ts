// Suite files as Windows leaves them: CRLF line endings (core.autocrlf=true checks text files out
// that way) and a UTF-8 byte-order mark (some editors save one). They read as the same files with
// LF and no mark, and errors are placed as an editor shows them (docs/configuration.md, "How YAML
// is read"; docs/fixtures.md, "Baselines").

import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { baselinePath, loadSuite, serializeBaseline } from '../../src/suite/index.js';
import * as lines from '../../src/suite/yaml/lines.js';
import { B, C, F, load, repo } from './helpers.js';
import { fixtureDefinitionHash, personaDefinitionHash } from '../../src/evaluate/definition.js';

const P = '.agent-replay/personas';

/** The text as a Windows checkout and editor leave it: a byte-order mark, then CRLF line endings. */
const windows = (text: string): string => `\uFEFF${text.replace(/\n/g, '\r\n')}`;
/** Each file's text as windows() leaves it. */
const asWindows = (texts: Record<string, string>) => Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, windows(v)]));
/** The errors of a load, each with its file, line, column, message and fix. */
const said = (r: Pick<Awaited<ReturnType<typeof load>>, 'errors'>) => r.errors.map((e) => [e.file, e.line, e.column, e.message, e.fix]);

const BASELINE = serializeBaseline({
  label: 'multi',
  message: 'hello',
  reply: 'Line one\nLine two',
  route: null,
  verdict: 'pass',
  acceptedAt: '2026-12-01T12:00:00.000Z',
  commit: null,
});

describe('suite files with CRLF line endings and a byte-order mark', () => {
  it('load as their LF twins: config, fixtures (block scalars without \\r), persona scripts and baselines', async () => {
    const files = {
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 5000\n',
      [`${F}/multi.yml`]: 'label: multi\nmessage: |\n  hello\n  there\nassert:\n  contains: >\n    folded\n    text\n',
      [`${P}/p.yml`]: 'label: script\nopening: hi\nexpect:\n  reply:\n    - { contains: "ok" }\n',
      [`${B}/multi.json`]: BASELINE,
    };
    const lf = await load(files);
    const win = await load(asWindows(files));
    expect(lf.errors).toEqual([]);
    expect(win.errors).toEqual([]);
    expect(win.warnings).toEqual(lf.warnings);
    const fixture = win.suite!.fixtures[0]!;
    expect(fixture.label).toBe('multi');
    expect(fixture.message).toBe('hello\nthere\n');
    expect(fixture.assertion).toEqual({ kind: 'contains', value: 'folded text\n' });
    expect(win.suite!.fixtures).toEqual(lf.suite!.fixtures);
    expect(win.suite!.personas.map((p) => p.label)).toEqual(['script']);
    expect(win.suite!.personas).toEqual(lf.suite!.personas);
    // The same definitions: a suite re-saved with CRLF is not "edited" (results.json's definitionHash, acceptance's check of it).
    expect(win.suite!.fixtures.map((f) => fixtureDefinitionHash(f))).toEqual(lf.suite!.fixtures.map((f) => fixtureDefinitionHash(f)));
    expect(win.suite!.personas.map((p) => personaDefinitionHash(p))).toEqual(lf.suite!.personas.map((p) => personaDefinitionHash(p)));
    expect(win.suite!.config.agent.timeoutMs).toBe(5000);
    // The baseline with a byte-order mark is read, not refused as invalid JSON at 1:1.
    expect(win.suite!.baselines.get('multi')?.reply).toBe('Line one\nLine two');
  });

  it('of the common shape are read line by line, as their LF twins are: the same values, definition hashes, and errors at the same lines', async () => {
    const files = {
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  timeoutMs: 5000\n',
      [`${F}/list.yml`]: 'fixtures:\n  - label: refund\n    message: "Can I get my money back?"   # the policy\n    assert: { contains: "30 days" }\n\n  - label: hours\n    message: When are you open?\n    assert:\n      - { regex: "Mon(day)?", flags: i }\n',
      [`${F}/bad.yml`]: 'label: bad\nmessage: hi\nasert: { contains: "x" }\n',
      [`${P}/p.yml`]: 'label: script\nopening: hi\nexpect:\n  reply:\n    - { contains: "ok" }\n',
    };
    // The line reader, watched (suite/yaml/lines.ts): whether each file took the fast path or js-yaml's.
    // A spy on the module's export, which the loader calls through (no module graph of its own: test
    // files share one, vitest.config.ts, isolate: false), taken off after the test.
    const reader = vi.spyOn(lines, 'readLines');
    onTestFinished(() => reader.mockRestore());
    /** The suite loaded from `texts`, and whether the line reader read each file's text (its byte-order mark taken off first). */
    const loaded = async (texts: Record<string, string>) => {
      reader.mockClear();
      const r = await loadSuite({ dir: '.agent-replay', cwd: await repo(texts), env: {}, untrustedSuite: null });
      const read = reader.mock.calls.map(([text], i) => ({ text, byLines: reader.mock.results[i]?.type === 'return' && reader.mock.results[i]?.value !== null }));
      const byLines = Object.values(texts).map((t) => read.some((c) => c.text === t.replace(/^\uFEFF/, '') && c.byLines));
      return { r, byLines };
    };
    const lf = await loaded(files);
    const win = await loaded(asWindows(files));
    expect(lf.byLines).toEqual([true, true, true, true]);
    expect(win.byLines).toEqual([true, true, true, true]);
    expect(win.r.suite).toBeNull();
    expect(said(win.r)).toEqual(said(lf.r));
    expect(said(win.r).map(([file, line, column]) => [file, line, column])).toEqual([[`${F}/bad.yml`, 3, 1]]);
    // Without the bad file: the same fixtures and scripts, and the same definition hashes.
    const fixed = { ...files, [`${F}/bad.yml`]: 'label: bad\nmessage: hi\n' };
    const [good, goodWin] = [(await loaded(fixed)).r, (await loaded(asWindows(fixed))).r];
    expect(goodWin.errors).toEqual([]);
    expect(goodWin.suite!.fixtures.map((f) => [f.label, f.message, f.assertion])).toEqual([
      ['bad', 'hi', null],
      ['refund', 'Can I get my money back?', { kind: 'contains', value: '30 days' }],
      ['hours', 'When are you open?', { kind: 'all', assertions: [{ kind: 'regex', pattern: 'Mon(day)?', flags: 'i' }] }],
    ]);
    expect(goodWin.suite!.fixtures).toEqual(good.suite!.fixtures);
    expect(goodWin.suite!.personas).toEqual(good.suite!.personas);
    expect(goodWin.suite!.fixtures.map((f) => fixtureDefinitionHash(f))).toEqual(good.suite!.fixtures.map((f) => fixtureDefinitionHash(f)));
    expect(goodWin.suite!.personas.map((p) => personaDefinitionHash(p))).toEqual(good.suite!.personas.map((p) => personaDefinitionHash(p)));
  });

  it('errors name the line and the column an editor shows, with no \\r in what they quote', async () => {
    const r = await load({
      [C]: windows('agent:\n  preset: native\n  timeoutMs: -5\n'),
      [`${F}/a.yml`]: windows('label: a\nmessage: hi\nasert: { contains: "x" }\n'),
      [`${F}/b.yml`]: windows('label: b\nmessage: hi\n  bad: indent\n'),
      [`${B}/a.json`]: windows('{\n  "label": "a",\n  "reply": "x",\n  "route": null,\n  "verdict": "maybe",\n  "acceptedAt": "t",\n  "commit": null\n}\n'),
    });
    const at = (file: string) => r.errors.filter((e) => e.file === file).map((e) => [e.line, e.column]);
    expect(at(C)).toEqual([[3, 14]]);
    expect(at(`${F}/a.yml`)).toEqual([[3, 1]]);
    expect(at(`${F}/b.yml`)).toEqual([[3, 3]]);
    expect(at(`${B}/a.json`)).toEqual([[5, 14]]);
    for (const e of r.errors) expect(`${e.message}\n${e.fix}`).not.toMatch(/[\r\uFEFF]/);
  });

  it('a last line without a line break (as Notepad saves it) is read as with one: an empty value is said at its key, with the fix', async () => {
    // With and without the line break, LF and CRLF: the same errors, at the same places, with the same fixes.
    const files = {
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n',
      [`${F}/empty.yml`]: 'label: a\nmessage:\n',
      [`${F}/list.yml`]: 'fixtures:\n  - label: b\n    message:   \n',
      [`${F}/comment.yml`]: 'label: c\nmessage: #5521 where is it?\n',
      [`${P}/p.yml`]: 'label: s\nexpect:\n  reply:\n    - { contains: "ok" }\nopening:\n',
    };
    const cut = (text: string): string => text.replace(/\r?\n$/, '');
    const expected = said(await load(files));
    expect(expected.map(([file, line, column]) => [file, line, column])).toEqual([
      [`${F}/comment.yml`, 2, 1],
      [`${F}/empty.yml`, 2, 1],
      [`${F}/list.yml`, 3, 5],
      [`${P}/p.yml`, 5, 1],
    ]);
    expect(expected[0]?.[4]).toBe('YAML reads "#5521 where is it?" after "message:" as a comment, so message is empty: quote it if it is the text (message: "#5521 where is it?")');
    for (const style of [(t: string) => t, windows]) {
      const r = await load(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, cut(style(v))])));
      expect(said(r)).toEqual(expected);
    }
  });

  it('a line indented with a tab is said in our words with the fix, the same with CRLF line endings', async () => {
    const files = {
      [C]: 'agent:\n\turl: http://127.0.0.1:9/chat\n\ttimeoutMs: 5\n',
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n\tcontains: x\n',
    };
    const said = (r: Awaited<ReturnType<typeof load>>) => r.errors.map((e) => `${e.file}:${String(e.line)}:${String(e.column)}: ${e.message}\n  fix: ${e.fix}`);
    const fix = 'indent with spaces, not tabs (set the editor to insert spaces for this file)';
    const expected = [
      `${C}:2:1: invalid YAML: lines 2 and 3 are indented with a tab, which YAML does not allow\n  fix: ${fix}`,
      `${F}/a.yml:4:1: invalid YAML: line 4 is indented with a tab, which YAML does not allow\n  fix: ${fix}`,
    ];
    expect(said(await load(files))).toEqual(expected);
    expect(said(await load(asWindows(files)))).toEqual(expected);
  });

  it('labels that name a file Windows refuses are configuration errors at the label, with a label to use', async () => {
    const r = await load({
      [`${F}/list.yml`]: 'fixtures:\n  - { label: CON, message: hi }\n  - { label: nul.orders, message: hi }\n  - { label: com1, message: hi }\n  - { label: console, message: hi }\n  - { label: lpt-1, message: hi }\n',
      [`${P}/p.yml`]: 'label: Aux\nopening: hi\nexpect:\n  reply:\n    - { contains: "ok" }\n',
    });
    expect(r.errors.map((e) => [e.file, e.line, e.column, e.fix])).toEqual([
      [`${F}/list.yml`, 2, 14, 'rename it, e.g. label: CON-1'],
      [`${F}/list.yml`, 3, 14, 'rename it, e.g. label: nul-1.orders'],
      [`${F}/list.yml`, 4, 14, 'rename it, e.g. label: com1-1'],
      [`${P}/p.yml`, 1, 8, 'rename it, e.g. label: Aux-1'],
    ]);
    expect(r.errors[1]?.message).toBe(
      'label "nul.orders" names its baseline file nul.orders.json, which cannot be created on Windows (nor checked out there by git): nul is one of the names Windows keeps for devices (CON, PRN, AUX, NUL, COM0-COM9, LPT0-LPT9), alone or before a dot',
    );
    // Acceptance never writes one either.
    expect(() => baselinePath('/suite/baselines', 'CON')).toThrow(/CON\.json, which cannot be created on Windows/);
  });

  it('two baseline files whose names differ only in case are an error on the one no item is labelled by, which is not read', async () => {
    const stored = (label: string) => serializeBaseline({ label, reply: label, route: null, verdict: 'pass', acceptedAt: '2026-12-01T12:00:00.000Z', commit: null });
    // A fixture renamed from Refund to refund on Linux, and accepted: both files are in the repository.
    const r = await load({ [`${F}/a.yml`]: 'label: refund\nmessage: hi\n', [`${B}/Refund.json`]: stored('Refund'), [`${B}/refund.json`]: stored('refund') });
    expect(r.errors).toEqual([
      {
        file: `${B}/Refund.json`,
        line: null,
        column: null,
        message: 'baseline file Refund.json differs only in case from refund.json: on macOS and Windows they are one file, and a checkout there keeps only one of them',
        fix: `delete ${B}/Refund.json (git rm ${B}/Refund.json): no fixture or persona script is labelled "Refund", and ${B}/refund.json is the baseline of "refund"`,
      },
    ]);
    // No orphan warning besides: the one file is said once.
    expect(r.warnings).toEqual([]);
  });

  it('fixture or persona files whose names differ only in case are an error on the second; folders that do are not', async () => {
    const script = (label: string) => `label: ${label}\nopening: hi\nexpect:\n  reply:\n    - { contains: "ok" }\n`;
    const r = await load({
      [`${F}/Refund.yml`]: 'label: refund-a\nmessage: hi\n',
      [`${F}/refund.yml`]: 'label: refund-b\nmessage: hi\n',
      // Two folders that differ in case become one on macOS, and no file of theirs is lost.
      [`${F}/Sub/x.yml`]: 'label: x\nmessage: hi\n',
      [`${F}/sub/y.yml`]: 'label: y\nmessage: hi\n',
      [`${P}/P.yml`]: script('p1'),
      [`${P}/p.yml`]: script('p2'),
    });
    expect(r.errors.map((e) => [e.file, e.message, e.fix])).toEqual([
      [
        `${F}/refund.yml`,
        `file name differs only in case from ${F}/Refund.yml: on macOS and Windows they are one file, and a checkout there keeps only one of them, whose fixtures alone would run`,
        `rename one of them (git mv ${F}/refund.yml <new name>), or move its fixtures into the other`,
      ],
      [
        `${P}/p.yml`,
        `file name differs only in case from ${P}/P.yml: on macOS and Windows they are one file, and a checkout there keeps only one of them, whose persona scripts alone would run`,
        `rename one of them (git mv ${P}/p.yml <new name>), or move its persona scripts into the other`,
      ],
    ]);
  });

  it('files whose names differ only in how an accented letter is encoded (NFC, NFD as macOS writes names) are an error on the second, said with why they look alike', async () => {
    const nfc = 'caf\u00e9';
    const nfd = 'cafe\u0301';
    const script = (label: string) => `label: ${label}\nopening: hi\nexpect:\n  reply:\n    - { contains: "ok" }\n`;
    const r = await load({
      [`${F}/${nfc}.yml`]: 'label: a\nmessage: hi\n',
      [`${F}/${nfd}.yml`]: 'label: b\nmessage: hi\n',
      // In case too: one file on macOS (which ignores both), two on Windows (which ignores case only).
      [`${F}/${nfc}/x.yml`]: 'label: c\nmessage: hi\n',
      [`${F}/Cafe\u0301/x.yml`]: 'label: d\nmessage: hi\n',
      // Folders that differ so are one there, and lose no file: not an error.
      [`${F}/${nfd}/y.yml`]: 'label: e\nmessage: hi\n',
      [`${P}/${nfc}.yml`]: script('p1'),
      [`${P}/${nfd}.yml`]: script('p2'),
    });
    const rest = (what: string) => `an accented letter is one character in one and a letter plus a combining accent in the other (Unicode NFC, NFD): macOS takes them for one file, and a checkout there keeps only one, whose ${what} alone would run`;
    expect(r.errors.map((e) => [e.file, e.message])).toEqual([
      [`${F}/${nfc}.yml`, `file name looks the same as ${F}/${nfd}.yml, but ${rest('fixtures')}`],
      [`${F}/${nfc}/x.yml`, `file name differs only in case from ${F}/Cafe\u0301/x.yml, but ${rest('fixtures')}`],
      [`${P}/${nfc}.yml`, `file name looks the same as ${P}/${nfd}.yml, but ${rest('persona scripts')}`],
    ]);
    expect(r.errors[0]?.fix).toBe(`rename one of them (git mv '${F}/${nfc}.yml' <new name>), or move its fixtures into the other`);
  });

  it('a label is A-Z, a-z, 0-9 and . _ -: "café" is refused alike written NFC or NFD, each offered a label the other is not, never read as two items', async () => {
    const r = await load({ [`${F}/a.yml`]: 'fixtures:\n  - { label: caf\u00e9, message: hi }\n  - { label: cafe\u0301, message: hi }\n' });
    // Both offered `cafe` would make a duplicate label of the two fixes (test/suite/hand-edits.test.ts).
    expect(r.errors.map((e) => [e.line, e.column, e.message.normalize('NFC'), e.fix])).toEqual(
      [
        [2, 'rename it, e.g. label: cafe'],
        [3, `rename it, e.g. label: cafe-2 (cafe is offered for "caf\u00e9" at ${F}/a.yml:2)`],
      ].map(([line, fix]) => [line, 14, 'label "caf\u00e9" is not valid: a label is 1-80 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit (it names the baseline file)', fix]),
    );
  });
});
