import { beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { fastSource } from '../../src/suite/yaml/fast.js';
import { checkFixtureFile } from '../../src/suite/fixtures.js';
import { resolveConfigFile } from '../../src/suite/config-file.js';
import { documentSource, lazyParses, loadYamlPackage } from '../../src/suite/yaml/index.js';
import { YAML_DOC_OPTIONS } from '../../src/suite/yaml/schema.js';

// The checkers here are called directly, not through loadSuite: the `yaml` package that places
// their problems is imported first, as loadSuite does on a problem (suite/yaml/package.ts).
beforeAll(async () => {
  await loadYamlPackage();
});

/** The js-yaml reading of a text it accepts. */
function accepted(text: string, file = 'f.yml') {
  const parsed = fastSource(file, text);
  if ('refused' in parsed) throw new Error(`js-yaml refused the text: ${parsed.refused.reason}`);
  return parsed;
}

/** The reference: the `yaml` document for data and every position. */
function slow(text: string) {
  return checkFixtureFile(documentSource('f.yml', text), parseDocument(text, YAML_DOC_OPTIONS).toJS());
}

function fast(text: string) {
  const parsed = accepted(text);
  return checkFixtureFile(parsed.src, parsed.data);
}

const CORPUS: Record<string, string> = {
  'one fixture per file (docs/fixtures.md)': 'label: refund-policy\nmessage: Can I get my money back?\npersona: returning-customer          # optional\nassert: { regex: "30 days", flags: "i" }\n',
  'a list per file (docs/fixtures.md)': 'fixtures:\n  - { label: welcome-greeting, message: hello, assert: { contains: Welcome } }\n  - { label: opening-hours, message: When are you open? }\n',
  'block items, comments, blank lines': '# a suite\n\nfixtures:\n  # first\n  - label: a\n    message: hi\n\n  - label: b\n    message: >\n      folded\n      text\n    assert:\n      judge: "Polite?"\n      threshold: 0.8\n',
  'literal block and escapes': 'label: esc\nmessage: |\n  line one\n  line "two"\nassert: { contains: "\\u00e9t\\u00e9 \\"q\\"" }\n',
  'empty persona then more keys': 'label: p\npersona:\nmessage: hi\nassert: { contains: x }\n',
  'anchors and aliases': 'fixtures:\n  - &base { label: a1, message: &msg hi }\n  - label: a2\n    message: *msg\n    persona: hello\n',
  'document start and CRLF': '---\r\nlabel: crlf\r\nmessage: "hi there"\r\n',
  'unicode': 'label: uni\nmessage: "Grüße 👋 日本"\nassert: { contains: "👋" }\n',
  'a bare top-level list': '- { label: l1, message: one }\n- label: l2\n  message: two\n',
  'indented flow spanning lines': 'fixtures:\n  - {\n      label: multi,\n      message: "spans lines",\n      assert: { regex: "sp(a|o)ns" }\n    }\n',
  'errors: unknown key, bad label, bad threshold': 'fixtures:\n  - { label: "bad label!", message: hi }\n  - { label: ok2, mesage: hi }\n  - { label: ok3, message: hi, assert: { judge: j, threshold: 2 } }\n',
  'warning: regex that does not compile': 'label: bad-regex\nmessage: hi\nassert: { regex: "(unclosed" }\n',
  'numbers and booleans where strings belong': 'label: 123\nmessage: true\n',
  'empty list': 'fixtures: []\n',
  'explicit tags': 'label: !!str 123\nmessage: !!str hello\n',
  'an anchored label': 'label: &l anchored-label\nmessage: *l\n',
  'a tagged and anchored list item': 'fixtures:\n  - !!map &one { label: t1, message: hi }\n',
  'quoted keys and trailing comments': '"label": q1 # the label\n\'message\': "hi" # the message\nassert: { "contains": hi }\n',
  'value on the next line': 'label:\n  next-line\nmessage:\n  # a comment first\n  "hi"\n',
  'deep block assertion': 'fixtures:\n- label: d1\n  message: hi\n  assert:\n    regex: "h(i|o)"\n    flags: i\n',
};

describe('the fast fixture reader agrees with the yaml document', () => {
  it.each(Object.entries(CORPUS))('%s', (_name, text) => {
    const expected = slow(text);
    const actual = fast(text);
    expect(actual).toEqual(expected);
  });

  it('refuses what js-yaml refuses, with its reason and position, so the yaml path reports the syntax error', () => {
    expect(fastSource('f.yml', 'label: a\nlabel: b\nmessage: x\n')).toEqual({
      refused: { reason: 'duplicated mapping key', offset: 9, position: { line: 2, column: 1 } },
    });
    expect(fastSource('f.yml', 'fixtures:\n  - { label: a, message: [unclosed\n')).toHaveProperty('refused');
    expect(fastSource('f.yml', 'label: a\n---\nlabel: b\n')).toHaveProperty('refused'); // two documents
  });

  it('never parses the full document for a valid file', () => {
    const before = lazyParses.count;
    const parsed = accepted(CORPUS['a list per file (docs/fixtures.md)'] as string);
    const result = checkFixtureFile(parsed.src, parsed.data);
    expect(result.errors).toEqual([]);
    expect(result.fixtures.map((f) => [f.label, f.line])).toEqual([
      ['welcome-greeting', 2],
      ['opening-hours', 3],
    ]);
    expect(lazyParses.count).toBe(before);
    // ...and parses it once when a problem needs a position.
    const bad = accepted('label: ok\nmessage: hi\nmesage: typo\n');
    expect(checkFixtureFile(bad.src, bad.data).errors[0]).toMatchObject({ line: 3, column: 1 });
    expect(lazyParses.count).toBe(before + 1);
  });
});

describe('the fast reader agrees with the yaml document on config files', () => {
  const CONFIGS: Record<string, string> = {
    'the docs/configuration.md example': `agent:
  url: https://preview.example.com/api/chat
  headers: { Authorization: "Bearer \${AGENT_TOKEN}" }
  timeoutMs: 30000
  concurrency: 4
judge:
  provider: openai                   # openai | anthropic
  baseUrl: https://api.openai.com/v1
  model: gpt-4o-mini
  apiKey: \${JUDGE_API_KEY}
regex: { timeoutMs: 100 }
cost: { agentTurnUsd: 0.01, turnsPerFixture: 2, judgeCallUsd: 0.005, capUsd: 0.10 }
`,
    'a mapping with errors and a missing variable': 'agent:\n  url: ftp://x\n  concurency: 4\n  headers: { X-Token: "${MISSING}" }\ncost: { capUsd: -1 }\n',
    'a custom mapping': 'agent:\n  url: http://127.0.0.1/chat\n  start: false\n  request: { body: { sender: "{{session}}", message: "{{message}}" } }\n  response: { reply: "0.text", conversation: null, stage: null }\n',
  };
  const env = { AGENT_TOKEN: 'tok-123', JUDGE_API_KEY: 'key-456' };
  it.each(Object.entries(CONFIGS))('%s', (_name, text) => {
    const expected = resolveConfigFile(documentSource('config.yml', text), 'config.yml', parseDocument(text, YAML_DOC_OPTIONS).toJS(), env);
    const parsed = accepted(text, 'config.yml');
    expect(resolveConfigFile(parsed.src, 'config.yml', parsed.data, env)).toEqual(expected);
  });
});
