// Every example of the README and docs/ does what its page says
// (docs/contributing.md, "Examples in the docs"): each ```yaml block is a config.yml, a fixture, a
// persona script or a workflow that the project's own loaders (src/suite/) and GitHub's workflow
// parser accept, with the Action's declared inputs and outputs and the permissions it needs; each
// ```json block a baseline the loader accepts as acceptance writes it, or a part of results.json the
// record's schema accepts; each command line `agent-replay ...` one the CLI's option table parses;
// an example of a mistake gets the error printed after it; and an output a page shows is the one
// the CLI prints, run in-process against the demo agent or a loopback one. A block's kind is told by
// its keys, or by a marker on the line above its fence, `<!-- example: KIND -->` (the kinds are
// listed at `Kind` below). Pages with a test of their own (test/docs/*.test.ts) are held to these
// rules too: the kinds are what every block is held to, a page's test what one block shows.

import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser';
import { parse, parseDocument } from 'yaml';
import { envInputGetter, readInputs } from '../../src/action/inputs.js';
import { COMMANDS, parseArgv, type CommandName } from '../../src/cli/options.js';
import { PINNED } from '../../src/cli/init.js';
import { AGENT_PRESETS, baselineSchemas, loadSuite, serializeBaseline } from '../../src/suite/index.js';
import { JUDGE_PROMPT_VERSION } from '../../src/judge/prompt.js';
import { startDemoServer } from '../../src/demo/server.js';
import { incompleteCause, lateCause, noSpansCause, notUnderAttemptCause } from '../../src/traces/observer.js';
import { brief, load, repo, B, C, F } from '../suite/helpers.js';
import { agentConfig, baseline, cli, makeProject, scriptedAgent, serve, useCleanup } from '../cli/helpers.js';
import { runRecordSchema } from '../../src/record/schema.js';
import { startServer } from '../judge/server.js';

useCleanup();

const PAGES = ['README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), ...readdirSync('docs/frameworks').filter((f) => f.endsWith('.md')).map((f) => `docs/frameworks/${f}`)];

/**
 * What a block is, as a marker names it:
 * - `config`, `fixture`, `persona`, `baseline`: a whole file of that kind;
 * - `config | fixture` (kinds joined by `|`): files of those kinds, one after the other, each
 *   starting at a line that follows an empty one;
 * - `fixture part`, `persona part`, `baseline part`: keys of one such file, added to the smallest
 *   file of that kind; a block whose top-level lines each stand alone (`assert:` written twice, as
 *   two ways of saying it) is one file per top-level entry;
 * - `workflow`, `workflow excerpt` (jobs without their runs-on or steps), `steps` (a job's steps, or
 *   a job from `steps:`): a GitHub workflow;
 * - `results <path>`: the value at `path` of results.json (`fixtures.drift.meaning`);
 * - `none (why)`: not a file (a directory listing, a request shape);
 * - `KIND, wrong` (`persona, wrong`): an example of a mistake, the plain block after it the errors
 *   `validate` prints for it.
 */
type Kind = 'files' | 'config' | 'fixture' | 'persona' | 'baseline' | 'fixture part' | 'persona part' | 'baseline part' | 'workflow' | 'workflow excerpt' | 'steps' | 'results' | 'none';

interface Block {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  text: string;
  /** The marker's text after `example: `, or null. */
  marker: string | null;
  /** The block right after this one on the page, when only blank lines and one line of prose part them. */
  next: Block | null;
  /** 0-based line of the closing fence. */
  end: number;
}

function blocksOf(page: string): Block[] {
  const lines = readFileSync(page, 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\S*)\s*$/.exec(lines[i]!);
    if (open === null) continue;
    const indent = open[1]!.length;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    const text = lines
      .slice(i + 1, end)
      .map((l) => l.slice(Math.min(indent, /^\s*/.exec(l)![0].length)))
      .join('\n');
    let above = i - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const marker = /^<!-- example: (.+) -->$/.exec(lines[above] ?? '')?.[1] ?? null;
    const block: Block = { page, line: i + 1, lang: open[2]!, text: `${text}\n`, marker, next: null, end };
    const previous = out.at(-1);
    if (previous !== undefined && i - previous.end <= 4) previous.next = block;
    out.push(block);
    i = end;
  }
  return out;
}

const BLOCKS = PAGES.flatMap(blocksOf);
const where = (b: Block): string => `${b.page}:${b.line}`;

// ---- kinds ----

const CONFIG_KEYS = ['agent', 'judge', 'regex', 'cost', 'coverage', 'repeat', 'personas', 'simulator', 'latency', 'meaning', 'stats', 'traces'];
const SCRIPT_KEYS = ['opening', 'followUps', 'user', 'expect', 'mocks', 'maxTurns', 'unmockedTools'];

interface KindOf {
  kind: Kind;
  /** `KIND, wrong`: an example of a mistake, the block after it the errors it gets. */
  wrong: boolean;
  /** `files`: the kinds of its parts; `results`: the path; `none`: why. */
  rest: string;
}

/** The kind of a yaml or json block: its marker's, else told by its top-level keys; null when neither says. */
function kindOf(b: Block): KindOf | null {
  if (b.marker !== null) {
    if (/^[a-z]+(?: \| [a-z]+)+$/.test(b.marker)) return { kind: 'files', wrong: false, rest: b.marker };
    const m = /^(none|results|[a-z]+(?: part| excerpt)?)(, wrong)?(?:\s+(.*))?$/.exec(b.marker);
    return m === null ? null : { kind: m[1] as Kind, wrong: m[2] !== undefined, rest: m[3] ?? '' };
  }
  let data: unknown;
  try {
    data = b.lang === 'json' ? JSON.parse(b.text) : parse(b.text);
  } catch {
    return null;
  }
  const told = (kind: Kind): KindOf => ({ kind, wrong: false, rest: '' });
  if (Array.isArray(data)) return data.every((s) => s !== null && typeof s === 'object' && ('uses' in s || 'run' in s)) ? told('steps') : null;
  if (data === null || typeof data !== 'object') return null;
  const keys = Object.keys(data);
  if (b.lang === 'json') return keys.includes('label') && keys.includes('acceptedAt') ? told('baseline') : null;
  if (keys.includes('jobs')) return told('workflow');
  if (keys.includes('steps')) return told('steps');
  if (keys.includes('label')) return told(keys.some((k) => SCRIPT_KEYS.includes(k)) ? 'persona' : 'fixture');
  if (keys.length === 1 && keys[0] === 'fixtures') return told('fixture');
  if (keys.every((k) => CONFIG_KEYS.includes(k))) return told('config');
  return null;
}

const FILE_BLOCKS = BLOCKS.filter((b) => b.lang === 'yaml' || b.lang === 'json');

describe('every yaml and json block of the docs', () => {
  it('is of a kind: its keys say which, or a marker above it', () => {
    expect(FILE_BLOCKS.length).toBeGreaterThan(40);
    const untold = FILE_BLOCKS.filter((b) => kindOf(b) === null).map(where);
    expect(untold, 'blocks whose kind neither their keys nor a marker (<!-- example: KIND -->) tells').toEqual([]);
  });
});

// ---- suite files ----

/**
 * Every `${NAME}` of a text, with a value: an address for a name that says URL, else a word. Each is
 * a secret the process remembers for its last-resort handler (src/secrets.ts), for every test file
 * run after this one in the worker: a value no other test's output can hold.
 */
function envOf(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => [m[1]!, /URL$/.test(m[1]!) ? `https://docs-example-${m[1]!.toLowerCase()}.example.test` : `docs-example-${m[1]!}-value`]));
}

/** The top-level entries of a YAML text, each with the lines under it (comments kept with the entry they follow). */
function topLevelEntries(text: string): string[] {
  const entries: string[] = [];
  for (const line of text.split('\n')) {
    if (/^[A-Za-z]/.test(line)) entries.push(`${line}\n`);
    else if (entries.length > 0 && line.trim() !== '') entries[entries.length - 1] += `${line}\n`;
  }
  return entries;
}

/** A YAML text that repeats a top-level key: each entry is one way to write it. */
const repeatsKeys = (text: string): boolean => parseDocument(text, { uniqueKeys: true }).errors.length > 0;

const SMALLEST: Record<'fixture' | 'persona', string> = {
  fixture: 'label: example\nmessage: hello\n',
  persona: 'label: example\nopening: hello\n',
};
const OK_CONFIG = 'judge: { baseUrl: https://judge.example.com/v1, model: m, apiKey: sk-docs-example-judge }\nsimulator: { model: m }\n';

/** The files a suite block stands for: path -> text. */
function suiteFiles(b: Block, { kind, rest }: KindOf): Record<string, string>[] {
  const fixturePath = `${F}/example.yml`;
  const personaPath = '.agent-replay/personas/example.yml';
  switch (kind) {
    case 'files': {
      const kinds = rest.split('|').map((k) => k.trim());
      const parts = b.text.split(/\n\s*\n/).filter((p) => p.trim() !== '');
      expect(parts.length, `${where(b)}: ${kinds.length} parts, each after an empty line`).toBe(kinds.length);
      const files: Record<string, string> = {};
      kinds.forEach((k, i) => (files[k === 'config' ? C : k === 'fixture' ? fixturePath : personaPath] = `${parts[i]!}\n`));
      if (!kinds.includes('fixture') && !kinds.includes('persona')) files[fixturePath] = SMALLEST.fixture;
      return [files];
    }
    case 'config':
      return [{ [C]: b.text, [fixturePath]: SMALLEST.fixture }];
    case 'fixture':
      return [{ [C]: OK_CONFIG, [fixturePath]: b.text }, ...commentedForms(b.text).map((form) => ({ [C]: OK_CONFIG, [fixturePath]: form }))];
    case 'persona':
      return [{ [C]: OK_CONFIG, [personaPath]: b.text }];
    case 'fixture part':
    case 'persona part': {
      const base = kind === 'fixture part' ? SMALLEST.fixture : SMALLEST.persona;
      const path = kind === 'fixture part' ? fixturePath : personaPath;
      const entries = repeatsKeys(b.text) ? topLevelEntries(b.text) : [b.text];
      return entries.map((e) => ({ [C]: OK_CONFIG, [path]: `${base}${e}` }));
    }
    default:
      return [];
  }
}

/**
 * A fixture's other forms, written as comments under it (`#   assert: { contains: "30 days" }   literal`,
 * `# or: assert: ...`): each one the fixture with that assertion instead. The words after two spaces
 * or more, or after a `(`, are the comment's own.
 */
function commentedForms(text: string): string[] {
  const forms = [...text.matchAll(/^#(?: or:)?\s+assert: (.+)$/gm)].map((m) => m[1]!.replace(/\s{2,}.*$|\s+\(.*$/, '').trim());
  const without = text
    .split('\n')
    .filter((l) => !/^assert:/.test(l))
    .join('\n');
  return forms.map((form) => `${without.trimEnd()}\nassert: ${form}\n`);
}

/**
 * A config.yml's keys written as comments (`  # model: gpt-4o-mini   # {{model}}: ...`), each one
 * the file with that line written out: a key the page offers must be one the file takes. A key
 * offered instead of the one above it (after a comment `# or, ...`) replaces that one; a key
 * offered for some presets (its comment says "preset") is written with each preset until one takes
 * it (a key its comment says is the native preset's left out then). A comment whose value is a sketch (`...`) is not a key to write.
 */
function commentedKeys(text: string): string[][] {
  const lines = text.split('\n');
  return lines.flatMap((l, i) => {
    const m = /^(\s*)# ([A-Za-z]\w*: .*?)(?:\s{2,}#\s*(.*))?$/.exec(l);
    if (m === null || m[2]!.includes('...')) return [];
    const indent = m[1]!;
    const written = [...lines];
    written[i] = `${indent}${m[2]!}`;
    if (/^\s*# or\b/.test(lines[i - 1] ?? '')) {
      let sibling = i - 2;
      while (sibling >= 0 && !(lines[sibling]!.startsWith(indent) && /^\w/.test(lines[sibling]!.slice(indent.length)))) sibling--;
      if (sibling >= 0) written.splice(sibling, 1);
    }
    const form = written.join('\n');
    if (!/preset/.test(m[3] ?? '')) return [[form]];
    // With another preset, a key the comment says is the native preset's (start: true) is left out.
    const others = form
      .split('\n')
      .filter((x) => !/^\s+(?!preset:)\w+:.*#.*\bnative\b/.test(x))
      .join('\n');
    return [[form, ...AGENT_PRESETS.map((p) => others.replace(/^(\s+preset:) \S+/m, `$1 ${p}`))]];
  });
}

describe('the config.yml, fixture and persona script examples', () => {
  const suites = FILE_BLOCKS.flatMap((b) => {
    const k = kindOf(b);
    return k === null || k.wrong || !['files', 'config', 'fixture', 'persona', 'fixture part', 'persona part'].includes(k.kind) ? [] : [{ b, k }];
  });

  it('are found on every page that shows one', () => {
    expect(suites.length).toBeGreaterThan(30);
  });

  for (const { b, k } of suites) {
    it(`${where(b)} (${b.marker ?? k.kind}) loads without an error or a warning`, async () => {
      for (const files of suiteFiles(b, k)) {
        const r = await load(files, { env: envOf(Object.values(files).join('\n')) });
        // A warning too: an example that warns (an unquoted `#`, curly quotes) teaches the trap it is warned of.
        const shown = `${where(b)}\n${Object.entries(files).map(([p, t]) => `--- ${p}\n${t}`).join('')}`;
        expect(brief(r.errors), shown).toEqual([]);
        expect(brief(r.warnings), shown).toEqual([]);
      }
      if (k.kind !== 'config') return;
      // One suite folder, its config.yml written again for each form.
      const cwd = await repo({ [`${F}/example.yml`]: SMALLEST.fixture });
      for (const ways of commentedKeys(b.text)) {
        let first: string[] | null = null;
        for (const text of ways) {
          await writeFile(join(cwd, C), text);
          // Its errors and warnings: a key offered is one the file takes without a word.
          const loaded = await loadSuite({ dir: '.agent-replay', cwd, env: envOf(text), untrustedSuite: null });
          const said = brief([...loaded.errors, ...loaded.warnings]);
          first ??= said;
          if (said.length === 0) {
            first = [];
            break;
          }
        }
        expect(first, `${where(b)}: a key offered as a comment\n${ways[0]!}`).toEqual([]);
      }
    });
  }
});

describe('the examples of a mistake', () => {
  const wrong = FILE_BLOCKS.filter((b) => kindOf(b)?.wrong === true);

  it('are shown with the errors they get', () => {
    expect(wrong.map(where).length).toBeGreaterThanOrEqual(1);
  });

  for (const b of wrong) {
    it(`${where(b)} gets from validate the errors the block after it shows, word for word`, async () => {
      const shown = b.next?.text;
      expect(b.next?.lang, `${where(b)}: the errors follow in a plain block`).toBe('');
      // The file is the one the errors name.
      const file = /^error: (\S+?):\d/.exec(shown ?? '')?.[1];
      expect(file, `${where(b)}: the errors name the file`).toBeDefined();
      const kind = kindOf(b)!.kind;
      const dir = file!.split('/').slice(0, -1).join('/');
      expect(dir, `${where(b)}: a ${kind} lives in its folder`).toBe(kind === 'persona' ? '.agent-replay/personas' : kind === 'fixture' ? F : '.agent-replay');
      const cwd = await makeProject({});
      await mkdir(join(cwd, dir), { recursive: true });
      await writeFile(join(cwd, file!), b.text);
      const r = await cli(['validate'], cwd);
      expect(r.code).toBe(2);
      const errors = r.stderr.split(/\n(?=\S)/).filter((e) => e.startsWith('error: ')).map((e) => e.trimEnd()).join('\n');
      expect(`${errors}\n`, where(b)).toBe(shown);
    });
  }
});

describe("docs/troubleshooting.md's configuration errors", () => {
  const page = readFileSync('docs/troubleshooting.md', 'utf8');
  const P = '.agent-replay/personas/p.yml';
  // A message the page's table quotes, and a suite that gets it. `...` in the quote stands for words left out.
  const cases: [string, Record<string, string>][] = [
    ['message must be a string, found 1e3, which YAML reads as the number 1000; fix: put the value in quotes: message: "1e3"', { [`${F}/a.yml`]: 'label: a\nmessage: 1e3\n' }],
    ['repeat.minPass 4 is not a whole number from 1 to count (3); fix: use minPass: 3, or raise count', { [C]: 'repeat: { count: 3, minPass: 4 }\n', [`${F}/a.yml`]: SMALLEST.fixture }],
    ['agent.url "localhost:3000/api/chat" has no scheme (http:// or https://): write http://localhost:3000/api/chat', { [C]: 'agent: { url: localhost:3000/api/chat }\n', [`${F}/a.yml`]: SMALLEST.fixture }],
    ['unknown key "mesage" (and the required "message" is missing); ... fix: did you mean "message"? rename the key, so that line 4 reads ...', { [`${F}/a.yml`]: '# a fixture\n\nlabel: a\nmesage: hi\n' }],
    ['followUps must be a list, found the string "Order 1234"', { [P]: 'label: a\nopening: hi\nfollowUps: Order 1234\nexpect: { terminal: finish }\n' }],
    ['judge.concurrency must be a number, found the string "4"', { [C]: 'judge: { concurrency: "4" }\n', [`${F}/a.yml`]: SMALLEST.fixture }],
    ['judge.provider must be one of openai, anthropic, found the string "OpenAI"', { [C]: 'judge: { provider: OpenAI }\n', [`${F}/a.yml`]: SMALLEST.fixture }],
    ['simulator must be a mapping, found the string "gpt-4o"', { [C]: 'simulator: gpt-4o\n', [`${F}/a.yml`]: SMALLEST.fixture }],
    ['assert must be a mapping or a list, found the string "contains 30 days"', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: contains 30 days\n' }],
    ['invalid YAML: \\d inside double quotes is not a YAML escape', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { regex: "\\d+" }\n' }],
    ['invalid YAML: the key "message" appears twice in one mapping (first on line 2)', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nmessage: hello\n' }],
    ['invalid YAML: "message:hi" has no space after the colon, so YAML reads it as text, not as the key "message"', { [`${F}/a.yml`]: 'label: a\nmessage:hi\n' }],
    ['invalid YAML: the value "Note: refunds take 30 days" holds ": ", which YAML reads as one more key on the same line', { [`${F}/a.yml`]: 'label: a\nmessage: Note: refunds take 30 days\n' }],
    ['pattern does not compile with the u flag: \\q is not an escape in Unicode mode', { [`${F}/a.yml`]: "label: a\nmessage: hi\nassert: { regex: '\\q', flags: u }\n" }],
    ['invalid YAML: line 2 has no ":" after its key "message", so YAML cannot read "hi" as its value', { [`${F}/a.yml`]: 'label: a\nmessage hi\n' }],
    ['invalid YAML: "contains" is written on the line of "assert", which YAML does not read as a key under it', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: contains: "30 days"\n' }],
    ['invalid YAML: the { opened at line 3, column 9 is closed here by ], not by }', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: { contains: "30 days" ]\n' }],
    [
      'invalid YAML: the } on line 5 closes the { opened at line 3, column 12 but is indented less than "headers" on line 3, ...',
      { [C]: 'agent:\n  url: http://127.0.0.1:9/chat\n  headers: { A: b,\n    C: d\n}\ncost: { capUsd: 1 ]\n', [`${F}/a.yml`]: SMALLEST.fixture },
    ],
    ['invalid YAML: the value "@support can you help?" on line 2 starts with @, which YAML does not allow at the start of unquoted text', { [`${F}/a.yml`]: 'label: a\nmessage: @support can you help?\n' }],
    [
      'persona script "p": YAML reads "# be brief" after "instructions:" as a comment, so user.instructions is empty: the simulator is given no instructions',
      { [C]: OK_CONFIG, [P]: 'label: p\nuser:\n  goal: get a refund\n  instructions: # be brief\n  maxTurns: 3\nexpect: { terminal: finish }\n' },
    ],
    ['fixture "a": YAML reads "# contains \\"30 days\\"" after "assert:" as a comment, so assert is empty: the fixture has no check, so it passes as a probe whatever the reply', { [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert: # contains "30 days"\n' }],
    [
      'fixture "a": assert[1] on line 6 has a fixture\'s keys (label, message): the next fixture, written inside the list of assert above, which YAML reads as one more item of that list',
      { [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert:\n    - contains: x\n    - label: next\n      message: hello\n' },
    ],
    [
      'invalid YAML: "label" on line 4 is at the column of the "-" of the list item on line 2, so YAML reads it neither as a key of that item nor as an item of the list',
      { [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n  label: b\n' },
    ],
    ['invalid YAML: line 3 writes "：" (a full-width colon) after the key "message", which YAML reads as a letter, not as the ":" after a key', { [`${F}/a.yml`]: 'label: a\n# greeting\nmessage：hi\n' }],
    ['unknown key "cap" in cost (written "costs" on line 3)', { [C]: 'agent: { url: https://preview.example.com/api/chat }\n\ncosts:\n  cap: 1\n', [`${F}/a.yml`]: SMALLEST.fixture }],
  ];

  for (const [quoted, files] of cases) {
    it(`says ${quoted.slice(0, 70)}`, async () => {
      expect(page, 'the page quotes the message').toContain(quoted);
      const r = await load(files);
      const said = [...r.errors, ...r.warnings].map((i) => `${i.message}; fix: ${i.fix}`);
      const parts = quoted.split(/\s*\.\.\.\s*/).filter((p) => p !== '');
      const matches = (m: string): boolean => {
        let from = 0;
        for (const part of parts) {
          const at = m.indexOf(part, from);
          if (at < 0) return false;
          from = at + part.length;
        }
        return true;
      };
      expect(said.filter(matches), `no issue says it:\n${said.join('\n')}`).not.toEqual([]);
    });
  }
});

// ---- baselines and results.json ----

/** A `baseline part` block (`"judge": {...},`) as the keys it adds. */
const partKeys = (text: string): Record<string, unknown> => JSON.parse(`{${text.trim().replace(/,$/, '')}}`) as Record<string, unknown>;

/** The suite a baseline needs to be read as one: the item of its label, a fixture or a persona script, beside it. */
function baselineSuite(baseline: Record<string, unknown>): Record<string, string> {
  const label = String(baseline.label);
  const item: Record<string, string> =
    baseline.kind === 'persona'
      ? { ['.agent-replay/personas/example.yml']: `label: ${label}\nopening: hello\nexpect: { terminal: finish }\n` }
      : { [`${F}/example.yml`]: `label: ${label}\nmessage: ${JSON.stringify(baseline.message ?? 'hello')}\n${baseline.judge !== undefined ? 'assert: { judge: "The reply states the refund window." }\n' : ''}` };
  return { [C]: OK_CONFIG, ...item, [`${B}/${label}.json`]: `${JSON.stringify(baseline, null, 2)}\n` };
}

describe('the baseline examples', () => {
  const baselines = FILE_BLOCKS.filter((b) => kindOf(b)?.kind === 'baseline' || kindOf(b)?.kind === 'baseline part');

  it('are the fixture, persona and simulated baselines and the parts the pages add to one', () => {
    expect(baselines.map(where).length).toBeGreaterThanOrEqual(6);
  });

  for (const b of baselines) {
    it(`${where(b)} (${kindOf(b)!.kind}) is read without an error or a warning`, async () => {
      let baseline: Record<string, unknown>;
      if (kindOf(b)!.kind === 'baseline') baseline = JSON.parse(b.text) as Record<string, unknown>;
      else {
        // Added to the page's own baseline, right after the verdict, where the page says it goes.
        const { verdict, acceptedAt, commit, ...head } = { label: 'refund-policy', reply: 'Refunds are accepted within 30 days of purchase.', route: null, verdict: 'pass', acceptedAt: '2026-11-30T10:00:00.000Z', commit: null };
        const part = partKeys(b.text);
        const judge = part.judge as { fingerprint?: { promptVersion?: string } } | undefined;
        if (judge !== undefined) expect(judge.fingerprint?.promptVersion, `${where(b)}: the judge prompt's version`).toBe(JUDGE_PROMPT_VERSION);
        baseline = { ...head, verdict, ...part, acceptedAt, commit };
      }
      const r = await load(baselineSuite(baseline));
      expect(brief(r.errors), where(b)).toEqual([]);
      expect(brief(r.warnings), where(b)).toEqual([]);
      if (kindOf(b)!.kind !== 'baseline') return;
      // In the key order acceptance writes; byte for byte when the page shows it as written (one key a line, no object on one line).
      const { baselineSchema, personaBaselineSchema } = baselineSchemas();
      const written = serializeBaseline(baseline.kind === 'persona' ? personaBaselineSchema.parse(baseline) : baselineSchema.parse(baseline));
      expect(JSON.stringify(baseline), `${where(b)}: the keys in the order acceptance writes them`).toBe(JSON.stringify(JSON.parse(written)));
      if (!/[[{] "/.test(b.text)) expect(b.text, `${where(b)}: as acceptance writes it`).toBe(written);
    });
  }
});

describe('the results.json excerpts', () => {
  const excerpts = FILE_BLOCKS.filter((b) => kindOf(b)?.kind === 'results');

  it('are found', () => {
    expect(excerpts.length).toBeGreaterThanOrEqual(1);
  });

  it("each, put where its marker says in a run's record, passes the record's schema", async () => {
    const agent = await serve(scriptedAgent({ 'Can I get my money back?': 'Refunds within 14 days.' }));
    const cwd = await makeProject({ config: agentConfig(agent.url), fixtures: { 'refund.yml': 'label: refund-policy\nmessage: Can I get my money back?\n' } });
    expect((await cli(['run'], cwd)).code).toBe(0);
    const record = JSON.parse(readFileSync(join(cwd, '.agent-replay/results/results.json'), 'utf8')) as Record<string, unknown>;
    expect(runRecordSchema.safeParse(record).success).toBe(true);
    for (const b of excerpts) {
      // `fixtures.drift.meaning`: a list's step is its first item.
      const path = kindOf(b)!.rest.split('.');
      const copy = structuredClone(record);
      let at: Record<string, unknown> = copy;
      for (const key of path.slice(0, -1)) {
        const next = at[key];
        at = (Array.isArray(next) ? next[0] : next) as Record<string, unknown>;
        expect(at, `${where(b)}: results.json has ${key}`).toBeTypeOf('object');
      }
      at[path.at(-1)!] = JSON.parse(b.text);
      const parsed = runRecordSchema.safeParse(copy);
      expect(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`), where(b)).toEqual([]);
    }
  });
});

// ---- workflows ----

interface Step {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on'?: unknown;
  permissions?: Record<string, string> | string;
  steps?: Step[];
}
interface Workflow {
  on?: unknown;
  permissions?: Record<string, string> | string;
  jobs: Record<string, Job>;
}

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, unknown>;
}
const ACTION = parse(readFileSync('action.yml', 'utf8')) as ActionYml;
const OURS = /^agent-replay\/agent-replay@/;

/** A workflow block as a whole workflow: a job's steps or a job put in one, an excerpt's jobs given what it leaves out. */
function asWorkflow(b: Block, kind: Kind): string {
  if (kind === 'workflow') return b.text;
  if (kind === 'workflow excerpt') {
    const w = parse(b.text) as Workflow;
    for (const job of Object.values(w.jobs)) {
      job['runs-on'] ??= 'ubuntu-latest';
      job.steps ??= [{ run: 'true' }];
    }
    return JSON.stringify({ name: 'excerpt', ...w });
  }
  const data = parse(b.text) as Step[] | { steps: Step[] };
  const steps = Array.isArray(data) ? data : data.steps;
  return JSON.stringify({ name: 'steps', on: 'pull_request', jobs: { job: { 'runs-on': 'ubuntu-latest', steps } } });
}

/** A permission level as a number: none 0, read 1, write 2. */
const level = (p: Record<string, string> | string | undefined, scope: string): number => {
  const v = typeof p === 'string' ? (p === 'write-all' ? 'write' : p === 'read-all' ? 'read' : 'none') : (p?.[scope] ?? 'none');
  return v === 'write' ? 2 : v === 'read' ? 1 : 0;
};

/**
 * What a step of ours needs of the job's token (docs/action.md): check mode comments (pull-requests:
 * write) unless it is a shard or comments nothing; report mode comments; accept mode commits
 * (contents: write), comments and removes the label, reads the run's artifact (actions: read), and
 * dispatches the check (actions: write) when check-workflow is set.
 */
function needs(step: Step): Record<string, number> {
  const w = step.with ?? {};
  const mode = String(w.mode ?? 'check');
  const comments = String(w.comment ?? 'true') !== 'false' && (mode !== 'check' || w.shard === undefined);
  const out: Record<string, number> = comments ? { 'pull-requests': 2 } : {};
  if (mode === 'accept') Object.assign(out, { contents: 2, 'pull-requests': 2, actions: w['check-workflow'] !== undefined ? 2 : 1 });
  return out;
}

describe('the workflow examples', () => {
  const workflows = FILE_BLOCKS.flatMap((b) => {
    const k = kindOf(b)?.kind;
    return k === 'workflow' || k === 'workflow excerpt' || k === 'steps' ? [{ b, kind: k }] : [];
  });

  it("name GitHub's actions at the tags init writes (PINNED), their current majors, in examples and prose alike", () => {
    const pinned = new Set<string>(Object.values(PINNED));
    const named = PAGES.flatMap((page) => [...readFileSync(page, 'utf8').matchAll(/\bactions\/[\w.-]+@[\w.-]+/g)].map((m) => ({ page, uses: m[0] })));
    expect(named.length).toBeGreaterThanOrEqual(15);
    expect(named.filter((n) => !pinned.has(n.uses))).toEqual([]);
  });

  it('are the check, preview, accept, shard, report, calibrate, nightly and traces workflows', () => {
    expect(workflows.length).toBeGreaterThanOrEqual(12);
  });

  it("name, in comment-key and workflow_run, a check workflow a page shows: the accept and report jobs find the check's comment and run by it", () => {
    const names = new Set(workflows.map(({ b }) => (parse(b.text) as { name?: string }).name).filter((n) => n !== undefined));
    expect(names).toContain('agent-replay');
    for (const { b } of workflows) {
      const w = parse(b.text) as Workflow & { on?: { workflow_run?: { workflows?: string[] } } };
      const keys = Object.values(w.jobs ?? {}).flatMap((j) => (j.steps ?? []).map((s) => s.with?.['comment-key']).filter((k) => k !== undefined));
      for (const named of [...keys, ...(w.on?.workflow_run?.workflows ?? [])]) expect(names, `${where(b)}: ${String(named)}`).toContain(named);
    }
  });

  for (const { b, kind } of workflows) {
    it(`${where(b)} (${kind}) passes GitHub's workflow parser, gives the Action only inputs it declares and reads only outputs it sets, with the permissions it needs`, async () => {
      const text = asWorkflow(b, kind);
      const parsed = parseWorkflow({ name: 'example.yml', content: text }, new NoOperationTraceWriter());
      expect(parsed.context.errors.getErrors().map((e) => e.message), where(b)).toEqual([]);
      const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
      expect(template.errors ?? [], where(b)).toEqual([]);
      const w = parse(text) as Workflow;
      for (const [name, job] of Object.entries(w.jobs)) {
        const ours = (job.steps ?? []).filter((s) => s.uses !== undefined && OURS.test(s.uses));
        for (const step of ours) {
          const given = Object.keys(step.with ?? {});
          expect(given.filter((k) => !Object.hasOwn(ACTION.inputs, k)), `${where(b)}: inputs action.yml does not declare`).toEqual([]);
          // Each value as the Action reads it (an expression stands for a value it takes: 1).
          const env = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, String(v).replace(/\$\{\{[^}]*\}\}/g, '1')]));
          expect(() => readInputs(envInputGetter(env)), `${where(b)}: ${JSON.stringify(step.with)}`).not.toThrow();
          // The permissions of the job, or else the workflow's (a fragment's are not shown: not checked).
          const permissions = job.permissions ?? w.permissions;
          if (permissions === undefined || kind !== 'workflow') continue;
          for (const [scope, want] of Object.entries(needs(step))) expect(level(permissions, scope), `${where(b)}: job ${name} needs ${scope}: ${want === 2 ? 'write' : 'read'}`).toBeGreaterThanOrEqual(want);
        }
        const ids = new Set(ours.map((s) => s.id).filter((id) => id !== undefined));
        const read = [...JSON.stringify(job).matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)].filter((m) => ids.has(m[1]!)).map((m) => m[2]!);
        expect(read.filter((o) => !Object.hasOwn(ACTION.outputs, o)), `${where(b)}: outputs action.yml does not set`).toEqual([]);
        // A checkout needs to read the repository; a download of another run's artifacts, its actions.
        const permissions = job.permissions ?? w.permissions;
        if (permissions === undefined || kind !== 'workflow') continue;
        if ((job.steps ?? []).some((s) => s.uses?.startsWith('actions/checkout@'))) expect(level(permissions, 'contents'), `${where(b)}: job ${name} checks out`).toBeGreaterThanOrEqual(1);
        if ((job.steps ?? []).some((s) => s.uses?.startsWith('actions/download-artifact@') && s.with?.['run-id'] !== undefined)) expect(level(permissions, 'actions'), `${where(b)}: job ${name} downloads another run's artifacts`).toBeGreaterThanOrEqual(1);
      }
    });
  }
});

// ---- command lines ----

/** A command line split as a POSIX shell would (single and double quotes; no expansion is used). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) words.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3]!);
  return words;
}

interface CommandLine {
  at: string;
  text: string;
  /** In running text: it may name a command and its flags without the values (`agent-replay accept --only`). */
  inline: boolean;
}

/** Every `agent-replay ...` command the pages show: in shell blocks, in workflow `run:` lines, and in inline code. */
function commandLines(): CommandLine[] {
  const out: CommandLine[] = [];
  const START = /^(?:npx )?agent-replay(?:@[\w.]+)?(?: |$)/;
  for (const b of BLOCKS) {
    const lines = b.text.replace(/\\\n\s*/g, '').split('\n');
    lines.forEach((l, i) => {
      const line = b.lang === 'yaml' ? (/^\s*(?:- )?run: (.*)$/.exec(l)?.[1] ?? '') : l.trim();
      if ((b.lang === 'sh' || b.lang === 'yaml') && START.test(line)) out.push({ at: `${b.page}:${b.line + 1 + i}`, text: line, inline: false });
    });
  }
  for (const page of PAGES) {
    const lines = readFileSync(page, 'utf8').split('\n');
    let fence = false;
    lines.forEach((l, i) => {
      if (/^\s*```/.test(l)) fence = !fence;
      if (fence) return;
      for (const m of l.matchAll(/`((?:npx )?agent-replay(?:@[\w.]+)? [^`]+)`/g)) out.push({ at: `${page}:${i + 1}`, text: m[1]!, inline: true });
    });
  }
  return out;
}

/** The words of a command line after `agent-replay`, as the CLI would get them: its comment, a synopsis's brackets and `...` left out, placeholders given a value. */
function argvOf(text: string): string[] {
  const line = text
    .replace(/\s+#\s.*$/, '')
    .replace(/^(?:npx )?agent-replay(?:@[\w.]+)?\s*/, '')
    .replace(/[[\]]/g, '')
    .replace(/"\$\w+"|\$\w+/g, '3')
    .replace(/<[^>]+>/g, 'value');
  return shellWords(line).filter((w) => w !== '...');
}

describe('the command lines of the docs', () => {
  const commands = commandLines();

  it('are found in the shell blocks, the workflows and the text', () => {
    expect(commands.length).toBeGreaterThan(40);
  });

  it('each one shown whole parses with the CLI option table: its command and flags exist, each flag with its value', () => {
    const refused = commands.filter((c) => !c.inline).flatMap((c) => {
      try {
        parseArgv(argvOf(c.text));
        return [];
      } catch (e) {
        return [`${c.at}: ${c.text}: ${(e as Error).message}`];
      }
    });
    expect(refused).toEqual([]);
  });

  it('every flag the pages name (outside the pages about building agent-replay itself) is one the CLI reads, or another tool\'s named here', () => {
    // Flags of other tools, as the pages use them; and the mistyped flags of docs/cli.md's usage error and docs/troubleshooting.md's hints.
    const OTHERS = new Set(['--open' /* cmark-gfm */, '--porcelain' /* git status */, '--renormalize' /* git add */, '--title', '--body' /* gh pr create */, '--port', '--no-browser' /* langgraph-cli dev */, '--import' /* node */, '--agent-ur', '--confirm']);
    const known = new Set([...Object.keys(COMMANDS).flatMap((c) => Object.keys(COMMANDS[c as CommandName].flags)), 'help', 'version'].map((f) => `--${f}`));
    const unknown = PAGES.filter((p) => !/(performance|contributing|architecture)\.md$/.test(p)).flatMap((p) =>
      readFileSync(p, 'utf8')
        .split('\n')
        .flatMap((l, i) => [...l.matchAll(/(?<![\w-])--[a-z][a-z-]*[a-z]/g)].map((m) => m[0]).filter((f) => !known.has(f) && !OTHERS.has(f)).map((f) => `${p}:${i + 1}: ${f}`)),
    );
    expect(unknown).toEqual([]);
  });

  it("each one run with npx at a version (a workflow's) names the package's version", () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const pinned = commands.flatMap((c) => [...c.text.matchAll(/agent-replay@(\d[\w.-]*)/g)].map((m) => `${c.at}: ${m[1]!}`));
    expect(pinned.length).toBeGreaterThanOrEqual(3);
    expect(pinned.filter((p) => !p.endsWith(`: ${version}`))).toEqual([]);
  });

  it('each one named in the text is a command with its own flags (`<command>` stands for any)', () => {
    const unknown = commands
      .filter((c) => c.inline && !c.text.includes('<command>'))
      .flatMap((c) => {
        const [name, ...rest] = argvOf(c.text);
        if (name === undefined || name.startsWith('-')) return name === '--help' || name === '--version' ? [] : [`${c.at}: ${c.text}`];
        if (!Object.hasOwn(COMMANDS, name)) return [`${c.at}: ${c.text}: no command ${name}`];
        const own = Object.keys(COMMANDS[name as CommandName].flags);
        return rest.filter((w) => w.startsWith('--') && !own.includes(w.slice(2).split('=')[0]!) && w !== '--help').map((w) => `${c.at}: ${c.text}: ${name} has no ${w}`);
      });
    expect(unknown).toEqual([]);
  });
});

// ---- outputs ----

/**
 * The lines of `shown` (a page's excerpt of an output) are lines of `output`, one after the other,
 * a line `…` standing for lines left out; a port number stands for any.
 */
function expectExcerpt(output: string, shown: string, at: string): void {
  const norm = (t: string): string => t.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT');
  const out = norm(output).split('\n');
  let from = 0;
  for (const part of norm(shown).trimEnd().split(/^…\n|\n…\n|\n…$/)) {
    const want = part.split('\n');
    const start = out.indexOf(want[0]!, from);
    expect(start, `${at}: the output has the line ${want[0]!}\n${output}`).toBeGreaterThanOrEqual(0);
    expect(out.slice(start, start + want.length).join('\n'), `${at}\n${output}`).toBe(want.join('\n'));
    from = start + want.length;
  }
}

/** The plain or text block under a heading of a page, the nth (0-based) after it. */
function blockUnder(page: string, heading: string, nth = 0, lang?: string): Block {
  const lines = readFileSync(page, 'utf8').split('\n');
  const at = lines.indexOf(heading);
  expect(at, `${page} has the heading ${heading}`).toBeGreaterThanOrEqual(0);
  const found = BLOCKS.filter((b) => b.page === page && b.line > at && (lang === undefined || b.lang === lang))[nth];
  expect(found, `${page}: block ${nth} under ${heading}`).toBeDefined();
  return found!;
}

describe('the outputs the docs show', () => {
  it("docs/cli.md's mistyped flag gets the two lines the page shows", async () => {
    const shown = BLOCKS.find((b) => b.page === 'docs/cli.md' && b.text.startsWith('agent-replay: unknown option'))!;
    const flag = /unknown option (--\S+) for "(\w+)"/.exec(shown.text)!;
    const r = await cli([flag[2]!, flag[1]!, 'http://127.0.0.1:1/api/chat'], await makeProject({}));
    expect(r.code).toBe(2);
    expect(r.stderr, where(shown)).toBe(shown.text);
  });

  it("docs/cli.md's quoted messages are the CLI's: a value that is an option, a negative number, files after one --results, validate's count", async () => {
    const page = readFileSync('docs/cli.md', 'utf8').replace(/\s+/g, ' ');
    const says = async (argv: string[], quoted: string, files: Record<string, string> = {}): Promise<void> => {
      expect(page, `docs/cli.md quotes ${quoted}`).toContain(quoted);
      const cwd = await makeProject({ fixtures: files });
      const r = await cli(argv, cwd);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stdout + r.stderr, argv.join(' ')).toContain(quoted.replace(/`/g, ''));
    };
    await says(['run', '--out', '--junit', 'r.xml'], '`--out` needs a value');
    await says(['run', '--concurrency', '-1'], '--concurrency must be a whole number from 1 to 256, got "-1"');
    await says(['report', '--results', 's1.json', 's2.json'], '--results s1.json --results s2.json');
    await says(['validate'], '2 configuration errors; a run would send nothing until they are fixed.', { 'a.yml': 'label: a\n', 'b.yml': 'label: b\n' });
    await says(['validate'], 'until it is fixed', { 'a.yml': 'label: a\n' });
  });

  it('the native protocol requests of docs/presets.md and docs/personas.md are the ones the agent gets', async () => {
    /** The request lines (`POST <agent.url> {...}`) of a block: each body's keys, a mock's too. */
    const requests = (b: Block): string[][] =>
      [...b.text.replace(/\n\s+(?=")/g, ' ').matchAll(/^POST <agent\.url>\s+(\{.*\})/gm)].map((m) => {
        const body = JSON.parse(m[1]!.replace(/\{\.\.\.\}/g, '{}')) as Record<string, unknown>;
        const mocks = Array.isArray(body.mocks) ? Object.keys(body.mocks[0] as object).map((k) => `mocks.${k}`) : [];
        return [...Object.keys(body), ...mocks].sort();
      });
    const native = blockUnder('docs/presets.md', '## The native protocol', 0);
    const additions = blockUnder('docs/personas.md', '## The protocol additions', 0);
    expect(requests(native)).toHaveLength(2);
    expect(requests(additions)).toHaveLength(1);
    const agent = await serve((req) => {
      const body = req.json as { start?: boolean };
      return { json: { reply: body.start === true ? 'Welcome!' : 'Order 1234 is delivered.', route: { conversation: 'orders', stage: 's' }, ended: false, outcome: 'finish' } };
    });
    const cwd = await makeProject({
      config: agentConfig(agent.url),
      fixtures: { 'f.yml': 'label: f\nmessage: Where is my order?\npersona: returning-customer\n' },
      personas: { 'p.yml': 'label: p\npersona: impatient\nopening: Where is order 1234?\nmocks:\n  - { tool: find_order, input: { orderId: "1234" }, match: subset, output: { status: delivered } }\nexpect: { terminal: finish }\n' },
    });
    expect((await cli(['run'], cwd)).code).toBe(0);
    const sent = agent.requests.map((r) => {
      const body = r.json as Record<string, unknown>;
      const mocks = Array.isArray(body.mocks) ? Object.keys(body.mocks[0] as object).map((k) => `mocks.${k}`) : [];
      return [...Object.keys(body), ...mocks].sort();
    });
    for (const shape of [...requests(native), ...requests(additions)]) expect(sent, `a request whose keys are ${shape.join(', ')}`).toContainEqual(shape);
  });

  it("the README's comment is the top of test/golden/mixed.comment.md, abridged: each line of it, in order, as GitHub shows it", () => {
    const readme = readFileSync('README.md', 'utf8');
    const quoted = /^What the comment looks like \(the top of `(test\/golden\/[\w.-]+)`/m.exec(readme);
    expect(quoted, 'README.md names the golden file it quotes').not.toBeNull();
    const after = readme.slice(quoted!.index).split('\n');
    const first = after.findIndex((l) => l.startsWith('>'));
    const end = after.findIndex((l, i) => i > first && !l.startsWith('>'));
    const excerpt = after
      .slice(first, end)
      .map((l) => l.replace(/^> ?/, ''))
      .join('\n')
      .replace(/<br>\n/g, '<br>')
      .split('\n')
      .filter((l) => l !== '');
    expect(excerpt.length).toBeGreaterThan(8);
    // The golden file's markup as the README writes it: headings in bold, a summary's line as text.
    const golden = readFileSync(quoted![1]!, 'utf8')
      .split('\n')
      .map((l) =>
        l
          .replace(/^#{3,4} (.*)$/, '**$1**')
          .replace(/<details(?: open)?><summary>|<\/summary>/g, '')
          .replace(/<b>(.*?)<\/b>/g, '**$1**')
          .replace(/<a href="[^"]*">(.*?)<\/a>/g, '$1'),
      );
    let from = 0;
    for (const line of excerpt) {
      const at = golden.indexOf(line, from);
      expect(at, `README.md: a line ${quoted![1]!} does not have (after line ${from}): ${line}`).toBeGreaterThanOrEqual(0);
      from = at + 1;
    }
  });

  it("docs/traces.md's causes are the observer's words for the trace, spans and receiver they name", () => {
    const page = 'docs/traces.md';
    const shown = BLOCKS.filter((b) => b.page === page && b.lang === '' && /spans/.test(b.text)).map((b) => b.text.trim());
    const id = '4bf92f3577b34da6a3ce929d0e0e4736';
    const receiver = { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 5000 };
    const causes = [incompleteCause(id, 2, '00f067aa0ba902b8', receiver), notUnderAttemptCause(id, 4, receiver), noSpansCause(id, receiver), noSpansCause(id, receiver, 12), lateCause(id, '5 s', receiver.endpoint, 4), noSpansCause(id, receiver, 0, { count: 6, path: '/v1/traces/v1/traces', contentType: null })];
    for (const cause of causes) expect(shown, `${page} shows: ${cause}`).toContain(cause);
  });

  it("docs/calibration.md's output is what calibrate prints for the suite it describes: 2 criteria, 6 baselines re-judged 3 times, one disagreement", async () => {
    const page = 'docs/calibration.md';
    const shown = blockUnder(page, '## How to read it', 0);
    // Each baseline's reply and the scores the judge gives it, in any order of the three calls.
    const scores: Record<string, { scores: number[]; rationale: string }> = {
      'Thank you, happy to help.': { scores: [0.9, 0.9, 0.9], rationale: 'Polite.' },
      'Ask someone else.': { scores: [0.1, 0.1, 0.1], rationale: 'Curt.' },
      'Figure it out yourself.': { scores: [0.1, 0.2, 0.3], rationale: 'The reply dismisses the user.' },
      'Sure, one moment please.': { scores: [0.6, 0.75, 0.9], rationale: 'Polite enough.' },
      'Order 77 left today.': { scores: [0.9, 0.9, 0.9], rationale: 'Names it.' },
      'Order 78 arrives tomorrow.': { scores: [0.9, 0.9, 0.9], rationale: 'Names it.' },
    };
    const calls = new Map<string, number>();
    const judge = await startServer([
      (res, req) => {
        const user = (req.body as { messages: { role: string; content: string }[] }).messages.find((m) => m.role === 'user')?.content ?? '';
        const reply = /<(reply-[0-9a-f-]+)>\n([\s\S]*)\n<\/\1>/.exec(user)?.[2] ?? '';
        const nth = calls.get(reply) ?? 0;
        calls.set(reply, nth + 1);
        const answer = scores[reply]!;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify({ rationale: answer.rationale, score: answer.scores[nth % 3] }) } }] }));
      },
    ]);
    try {
      const polite = (label: string, threshold: number) => `  - { label: ${label}, message: hi, assert: { judge: "The reply is polite", threshold: ${threshold} } }`;
      const order = (label: string) => `  - { label: ${label}, message: where is my order?, assert: { judge: "Mentioned the order number" } }`;
      const cwd = await makeProject({
        config: `agent: { url: http://127.0.0.1:9/api/chat }\njudge: { provider: openai, baseUrl: "${judge.url}/v1", model: gpt-4o-mini, apiKey: sk-docs-example-calibrate, retries: 0 }\n`,
        fixtures: { 'judged.yml': ['fixtures:', polite('polite-a', 0.5), polite('polite-b', 0.5), polite('polite-c', 0.5), polite('polite-d', 0.7), order('order-a'), order('order-b'), ''].join('\n') },
        baselines: [
          baseline('polite-a', 'Thank you, happy to help.', null, 'pass'),
          baseline('polite-b', 'Ask someone else.', null, 'fail'),
          baseline('polite-c', 'Figure it out yourself.', null, 'pass'),
          baseline('polite-d', 'Sure, one moment please.', null, 'pass'),
          baseline('order-a', 'Order 77 left today.', null, 'pass'),
          baseline('order-b', 'Order 78 arrives tomorrow.', null, 'pass'),
        ],
      });
      const r = await cli(['calibrate', '--repeat', '3'], cwd);
      expect(r.code, r.stderr).toBe(0);
      expect(judge.received).toHaveLength(18);
      // The page shows the judge at the API's own address; this one is on loopback.
      expect(r.stdout).toContain(` at ${judge.url}/v1: `);
      expectExcerpt(r.stdout.replaceAll(`${judge.url}/v1`, 'https://api.openai.com/v1'), shown.text, where(shown));
    } finally {
      await judge.close();
    }
  });

  it("docs/simulated-users.md's worked example is what the demo's script prints against the demo agent and simulator, and what accepting it writes", async () => {
    const page = 'docs/simulated-users.md';
    const demoDir = 'examples/demo/.agent-replay';
    const script = readFileSync(`${demoDir}/personas/refund-simulated.yml`, 'utf8');
    // "The script above without its opening line": the page's script is the demo's.
    const above = parse(blockUnder(page, '## The YAML', 0, 'yaml').text) as Record<string, unknown>;
    delete above.opening;
    expect(parse(script), `${page}: the script above without its opening line is ${demoDir}/personas/refund-simulated.yml`).toEqual(above);
    const demo = await startDemoServer();
    try {
      // The demo's config.yml; the proxy below adds time of its own, which no line shown here is about.
      const config = `${readFileSync(`${demoDir}/config.yml`, 'utf8')}latency: { minDeltaMs: 600000 }\n`;
      const cwd = await makeProject({ config, personas: { 'refund-simulated.yml': script } });
      const run = () => cli(['run', '--agent-url', demo.agentUrl, '--judge-url', demo.judgeBaseUrl], cwd);
      const first = await run();
      expectExcerpt(first.stdout, blockUnder(page, '## A worked example', 0).text, `${page}: the first run`);
      expect((await cli(['accept'], cwd)).code).toBe(0);
      const written = JSON.parse(readFileSync(join(cwd, '.agent-replay/baselines/refund-simulated.json'), 'utf8')) as Record<string, unknown>;
      const shown = JSON.parse(blockUnder(page, '## A worked example', 1).text) as Record<string, unknown>;
      // The latency is the run's own: any number of milliseconds where the page shows one.
      expect(typeof written.latencyMs, `${page}: the accepted baseline keeps its latency`).toBe(typeof shown.latencyMs);
      expect({ ...written, latencyMs: shown.latencyMs }, `${page}: the accepted baseline`).toEqual(shown);
      const next = await run();
      expect(next.code).toBe(0);
      expectExcerpt(next.stdout, blockUnder(page, '## A worked example', 2).text, `${page}: the next run`);
      // A pull request that rewords the reply of turn 2, then one that changes what it says: the demo agent behind a proxy that rewrites it.
      const turn2 = 'Thanks: order 4321 (tent) is delivered. What went wrong with it?';
      const rewrite = async (from: string, to: string) =>
        serve(
          (req) =>
            new Promise((resolve, reject) => {
              const upstream = request(demo.agentUrl, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
                let body = '';
                res.setEncoding('utf8');
                res.on('data', (chunk: string) => (body += chunk));
                res.on('end', () => resolve({ status: res.statusCode, body: body.replace(from, to), headers: { 'content-type': 'application/json' } }));
              });
              upstream.on('error', reject);
              upstream.end(req.body);
            }),
        );
      const reworded = await rewrite(turn2, 'Order 4321 (tent) shows as delivered. What happened to it?');
      const third = await cli(['run', '--agent-url', reworded.url, '--judge-url', demo.judgeBaseUrl], cwd);
      expectExcerpt(third.stdout, blockUnder(page, '## A worked example', 3).text, `${page}: the reworded reply`);
      const changed = await rewrite('is delivered.', 'is never delivered.');
      const fourth = await cli(['run', '--agent-url', changed.url, '--judge-url', demo.judgeBaseUrl], cwd);
      expectExcerpt(fourth.stdout, blockUnder(page, '## A worked example', 4).text, `${page}: the changed reply`);
      const facts = /The facts line says `([^`]+)`/.exec(readFileSync(page, 'utf8'))?.[1]?.replace(/\s+/g, ' ');
      expect(fourth.stdout, `${page}: the facts line`).toContain(facts);
    } finally {
      await demo.close();
    }
  });
});
