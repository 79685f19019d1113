// Bad input whose fix is said whole, at once: no fix leads to the next error, and what the fix
// says is a value the setting takes (docs/troubleshooting.md, "Configuration errors").

import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { C, F, OK_FIXTURE, load } from './helpers.js';
import { docsUrl } from '../../src/version.js';

describe('a quoted number: the checks read it as the number its fix writes', () => {
  it('repeat: { count: "3", minPass: 5 } says both at once, in config.yml, a fixture and a persona script', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: "3", minPass: 5 }\n',
      ['.agent-replay/personas/s.yml']: 'label: s\nopening: hi\nexpect: { terminal: finish }\nrepeat: { count: "3", max: 2 }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nrepeat: { count: "3", minPass: 5 }\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:3:18: repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `${C}:3:32: repeat.minPass 5 is not a whole number from 1 to count (3)\n  fix: use minPass: 3, or raise count`,
      `${F}/a.yml:3:18: fixture "a": repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `${F}/a.yml:3:32: fixture "a": repeat.minPass 5 is not a whole number from 1 to count (3)\n  fix: use minPass: 3, or raise count`,
      `.agent-replay/personas/s.yml:4:18: persona script "s": repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `.agent-replay/personas/s.yml:4:28: persona script "s": repeat.max 2 is not a whole number from count (3) to 20\n  fix: use max: 10, or remove max (no extra attempts)`,
    ]);
  });

  it('a quoted number whose number is fine is said once; one the setting does not take as a number is still left to its own error', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nrepeat: { count: "3", minPass: 2 }\njudge:\n  concurrency: "0"\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '3: repeat.count must be a number, found the string "3"',
      '5: judge.concurrency must be a number, found the string "0"',
    ]);
  });

  it('a quoted number its fix does not write (minPass: "5" beside count: 3) is said once, with one example within count', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nrepeat: { count: 3, minPass: "5" }\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nrepeat: { count: "3", minPass: "5", max: "2" }\n',
      ['.agent-replay/personas/s.yml']: 'label: s\nopening: hi\nexpect: { terminal: finish }\nrepeat: { count: "30", minPass: "2.5" }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nrepeat:\n  count: 3\n  minPass: "5"\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      // The count's value, as repeat's own check says it (repeat.minPass 5 is not a whole number from 1 to count (3)).
      `${C}:5:12: repeat.minPass must be a number, found the string "5"\n  fix: change repeat.minPass to a whole number from 1 to count (3), e.g. minPass: 2`,
      `${F}/a.yml:3:30: fixture "a": repeat.minPass must be a number, found the string "5"\n  fix: change repeat.minPass to a whole number from 1 to count (3), e.g. minPass: 2`,
      `${F}/b.yml:3:18: fixture "b": repeat.count must be a number, found the string "3"\n  fix: write the number without quotes: count: 3`,
      `${F}/b.yml:3:32: fixture "b": repeat.minPass must be a number, found the string "5"\n  fix: change repeat.minPass to a whole number from 1 to count (3), e.g. minPass: 2`,
      `${F}/b.yml:3:42: fixture "b": repeat.max must be a number, found the string "2"\n  fix: change repeat.max to a whole number from count (3) to 20, e.g. max: 10`,
      // A count past its range bounds nothing: its value is not said.
      `.agent-replay/personas/s.yml:4:18: persona script "s": repeat.count must be a number, found the string "30"\n  fix: change repeat.count to a whole number from 1 to 20, e.g. count: 3`,
      `.agent-replay/personas/s.yml:4:33: persona script "s": repeat.minPass must be a number, found the string "2.5"\n  fix: change repeat.minPass to a whole number from 1 to count, e.g. minPass: 2`,
    ]);
  });
});

describe('one value where a list belongs: the list that was meant, when it is valid', () => {
  const P = '.agent-replay/personas';
  const SCRIPT = 'label: s\nopening: hi\nexpect: { terminal: finish }\n';

  it('mocks: find_order is a mock of that tool; a value that would not read the same inside { } is quoted', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${P}/s.yml`]: `${SCRIPT}mocks: find_order   # the lookup\n`,
      [`${P}/t.yml`]: 'label: t\nopening: hi\nexpect:\n  terminal: finish\n  toolNotCalled: "issue: refund"\n',
    });
    expect(r.errors.map(formatIssue)).toEqual([
      `${P}/s.yml:4:8: persona script "s": mocks must be a list, found the string "find_order"\n` +
        '  fix: make it a list of one mapping, with find_order as its tool (the keys an item takes: tool, input, match, output), so that line 4 reads\n    mocks: [ { tool: find_order } ]   # the lookup',
      `${P}/t.yml:5:18: persona script "t": expect.toolNotCalled must be a list, found the string "issue: refund"\n` +
        '  fix: make it a list of one mapping, with "issue: refund" as its tool (the keys an item takes: tool, input, match), so that line 5 reads\n      toolNotCalled: [ { tool: "issue: refund" } ]',
    ]);
  });

  it('a list of tool names where a list of mocks belongs: each item is the mapping it stands for', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [`${P}/s.yml`]: `${SCRIPT}mocks: [find_order, "issue refund"]\n` });
    expect(r.errors.map((e) => `${e.line}:${e.column}: ${e.message}\n  fix: ${e.fix}`)).toEqual([
      '4:9: persona script "s": mocks[0] must be a mapping, found the string "find_order"\n  fix: write it as a mapping with find_order as its tool: { tool: find_order } (the keys it takes: tool, input, match, output)',
      '4:21: persona script "s": mocks[1] must be a mapping, found the string "issue refund"\n  fix: write it as a mapping with "issue refund" as its tool: { tool: "issue refund" } (the keys it takes: tool, input, match, output)',
    ]);
  });

  it('judge.panel written as one mapping: a panel is 3 or 5 members, or the judge alone', async () => {
    const flow = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  panel: { model: a }\n' });
    expect(flow.errors.map(formatIssue)).toEqual([
      `${C}:4:10: judge.panel must be a list, found a mapping\n` +
        `  fix: a panel is a list of 3 or 5 judges (${docsUrl('judges.md', 'Panels')}): write this one as its first "- " line (- { model: a }) and add 2 more; ` +
        'or, for this judge alone, remove panel: and write model: a under judge',
    ]);
    // A key the judge sets already: the member's takes its place.
    const both = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  model: b\n  panel: { model: a, label: x }\n' });
    expect(both.errors.map((e) => e.fix)).toEqual([
      `a panel is a list of 3 or 5 judges (${docsUrl('judges.md', 'Panels')}): write this one as its first "- " line (- { model: a, label: x }) and add 2 more; ` +
        'or, for this judge alone, remove panel: and write its keys (model, label) under judge (in place of its own model)',
    ]);
    const block = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  panel:\n    model: a\n    label: cheap\n' });
    expect(block.errors.map(formatIssue)).toEqual([
      `${C}:5:5: judge.panel must be a list, found a mapping\n` +
        `  fix: a panel is a list of 3 or 5 judges (${docsUrl('judges.md', 'Panels')}): start line 5 with "- " for this one, indent its other lines by two more spaces, and add 2 more; ` +
        'or, for this judge alone, remove panel: and move its keys under judge',
    ]);
  });
});

describe('an address from ${NAME} that is no URL: the variable is named, its value never shown', () => {
  it('agent.url, judge.baseUrl, simulator, meaning and traces: what the value lacks and how to set it', async () => {
    const env = { AGENT_URL: 'preview.example.com/api/chat?token=S3CRET1', JUDGE_BASE: 'ftp://user:S3CRET2@api.example.com/v1', HOST: 'not a host S3CRET3', SIM: 'S3CRET4', TEMPO: 'tempo.internal:3200' };
    const r = await load(
      {
        [`${F}/a.yml`]: OK_FIXTURE,
        [C]: [
          'agent:\n  url: ${AGENT_URL}',
          'judge:\n  baseUrl: ${JUDGE_BASE}\n  apiKey: k',
          'simulator:\n  baseUrl: https://${HOST}/v1',
          'meaning:\n  baseUrl: ${SIM}',
          'traces:\n  query: { kind: tempo, url: "${TEMPO}" }',
          '',
        ].join('\n'),
      },
      { env },
    );
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:8: agent.url "\${AGENT_URL}": the value of AGENT_URL has no scheme (http:// or https://)\n` +
        '  fix: set AGENT_URL to the full address of the agent, e.g. https://preview.example.com/api/chat (its value is not shown here: an address may carry a password or a token)',
      `${C}:4:12: judge.baseUrl "\${JUDGE_BASE}": the value of JUDGE_BASE does not start with http:// or https://\n` +
        '  fix: set JUDGE_BASE to the API base address, e.g. https://api.openai.com/v1 (its value is not shown here: an address may carry a password or a token)',
      `${C}:7:12: simulator.baseUrl "https://\${HOST}/v1" is not a valid URL with the value of HOST\n` +
        '  fix: check the value of HOST: with it, baseUrl must be the API base address, e.g. https://api.openai.com/v1 (its value is not shown here: an address may carry a password or a token)',
      `${C}:9:12: meaning.baseUrl "\${SIM}": the value of SIM is not a valid URL\n` +
        '  fix: set SIM to the API base address, e.g. https://api.openai.com/v1, or remove baseUrl to use the judge\'s (its value is not shown here: an address may carry a password or a token)',
      `${C}:11:30: traces.query.url "\${TEMPO}": the value of TEMPO has no scheme (http:// or https://)\n` +
        '  fix: set TEMPO to the store\'s base address, e.g. https://tempo.example.com (its value is not shown here: an address may carry a password or a token)',
    ]);
    expect(JSON.stringify(r.errors)).not.toMatch(/S3CRET|tempo\.internal/);
  });

  it('traces.query.url from ${NAME} with a query string: the variable is named, the query never shown', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\ntraces:\n  query: { kind: tempo, url: "${T}" }\n' }, { env: { T: 'https://tempo.example.com/?token=S3CRET5' } });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:4:30: traces.query.url "\${T}" has a query string with the value of T: the trace's path is added to the base address\n` +
        '  fix: give T the store\'s base address without "?...", e.g. https://tempo.example.com (its value is not shown here: an address may carry a password or a token)',
    ]);
    expect(JSON.stringify(r.errors)).not.toContain('S3CRET5');
  });

  it('an address without its scheme: the fix writes that address with it, not an example of another', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: 127.0.0.1:3000/chat\njudge:\n  model: m\n  apiKey: k\n  baseUrl: llm.internal:8080/v1\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:8: agent.url "127.0.0.1:3000/chat" has no scheme (http:// or https://): write http://127.0.0.1:3000/chat\n  fix: give the full address of the agent, with its scheme: url: http://127.0.0.1:3000/chat`,
      `${C}:6:12: judge.baseUrl "llm.internal:8080/v1" has no scheme (http:// or https://): write http://llm.internal:8080/v1\n  fix: give the API base address, with its scheme: baseUrl: http://llm.internal:8080/v1`,
    ]);
  });

  it('an address written in the file is still shown, with the address to write', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: preview.example.com/api/chat\n' });
    expect(r.errors.map(formatIssue)).toEqual([
      `${C}:2:8: agent.url "preview.example.com/api/chat" has no scheme (http:// or https://): write https://preview.example.com/api/chat\n  fix: give the full address of the agent, with its scheme: url: https://preview.example.com/api/chat`,
    ]);
  });
});

describe('an item of a list in [ ]: its fix writes it as it is written there, with no "-"', () => {
  it('judge.panel: [gpt-4o-mini, ...] and followUps: [42, ...] get the item to write after the "[" or ","; a "- " item keeps its "-"', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      ['.agent-replay/personas/s.yml']: 'label: s\nopening: hi\nfollowUps: [42, ok]\nexpect: { terminal: finish }\n',
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  panel: [gpt-4o-mini, { model: o3 },\n    gpt-4.1-mini]\nsimulator:\n  model: m\n',
      ['.agent-replay/personas/t.yml']: 'label: t\nopening: hi\nfollowUps:\n  - 42\nexpect: { terminal: finish }\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.fix}`)).toEqual([
      `${C}:4:11: write it as a mapping of its settings: { model: gpt-4o-mini }`,
      `${C}:5:5: write it as a mapping of its settings: { model: gpt-4.1-mini }`,
      '.agent-replay/personas/s.yml:3:13: put the value in quotes: "42"',
      '.agent-replay/personas/t.yml:4:5: put the value in quotes: - "42"',
    ]);
  });
});

describe('a section written as one of the values a key of it lists', () => {
  it('meaning: facts is { check: facts }, not a model named facts; meaning: gpt-4o is still a model', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nmeaning: facts\n' });
    expect(r.errors.map((e) => e.fix)).toEqual(['write it as a mapping: meaning: { check: facts }']);
    const model = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nmeaning: gpt-4o\n' });
    expect(model.errors.map((e) => e.fix)).toEqual(['write it as a mapping of its settings: meaning: { model: gpt-4o }']);
  });
});

describe('a list of one value where one value belongs', () => {
  it('simulator: { model: [gpt-4o] } gets model: gpt-4o; a list the setting would not take as its value is left to its words', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nsimulator: { model: [gpt-4o] }\nmeaning: { threshold: [2] }\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual(['3: write the one value without [ ]: model: gpt-4o', '4: change meaning.threshold to a number from 0 to 1, e.g. threshold: 0.5']);
  });
});

describe('a percentage where a fraction belongs', () => {
  it('meaning.threshold: 80 and stats.alpha: 5 get the fraction; a port or a count out of range does not', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nmeaning: { threshold: 80 }\nstats: { alpha: 5 }\ntraces: { receive: { port: 99999 } }\n',
    });
    expect(r.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual([
      '3: write it as a fraction: threshold: 0.8 (80%)',
      '4: write it as a fraction: alpha: 0.05 (5%)',
      '5: set traces.receive.port to a value in that range',
    ]);
    // A threshold of 1.5 is no percentage: 0.015 would let every reply through.
    const low = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\nmeaning: { threshold: 1.5 }\nstats: { alpha: 2 }\n' });
    expect(low.errors.map((e) => `${e.line}: ${e.fix}`)).toEqual(['3: set meaning.threshold to a value in that range', '4: write it as a fraction: alpha: 0.02 (2%)']);
  });
});

describe('a warning beside a misspelt key names only what the file says', () => {
  it('a panel member with modle: is warned about its missing key without the default model it would have', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:9/chat\njudge:\n  panel:\n    - { modle: a }\n    - { model: b }\n    - { model: c }\n' });
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '5: unknown key "modle" in judge.panel[0]; allowed keys: provider, baseUrl, model, apiKey, timeoutMs, retries, backoffMs, concurrency, label',
    ]);
    expect(r.warnings.map((w) => `${w.line}: ${w.message}`)).toEqual([
      '5: judge.panel[0] (openai) has no API key: openai will refuse its calls and the panel may not reach a majority',
      '6: judge.panel[1] (openai b) has no API key: openai will refuse its calls and the panel may not reach a majority',
      '7: judge.panel[2] (openai c) has no API key: openai will refuse its calls and the panel may not reach a majority',
    ]);
  });
});

describe('an API base address with a query or fragment', () => {
  it('is an error for the judge, the simulator and the meaning judge (and a panel member), naming the line, never showing what follows ? or #', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]:
        'agent:\n  url: "https://h/chat?code=AGENTQ1"\njudge:\n  apiKey: k\n  baseUrl: "https://gw.example.com/v1?api-key=SECRETQ1"\n' +
        '  panel:\n    - { model: a }\n    - { model: b, baseUrl: "https://user:SECRETP1@gw.example.com/v1" }\n    - { model: c }\n' +
        'simulator:\n  baseUrl: "https://sim.example.com/v1#SECRETF1"\nmeaning:\n  baseUrl: "${MEANING_BASE}"\n',
    }, { env: { MEANING_BASE: 'https://m.example.com/v1?key=SECRETE1' } });
    expect(r.errors.map((e) => `${e.line}: ${e.message} | ${e.fix}`)).toEqual([
      '5: judge.baseUrl "https://gw.example.com/v1?\u2026" has a query or fragment (? or #): the API\'s paths are added after the base address, so each call would go to a wrong address | give the API base address alone, e.g. baseUrl: https://api.openai.com/v1; a key goes in apiKey, not in the address',
      '8: judge.panel[1].baseUrl "https://user:***@gw.example.com/v1" has a user or password (before the @): the API\'s client does not send them | give the API base address alone, e.g. baseUrl: https://api.openai.com/v1; a key goes in apiKey, not in the address',
      '11: simulator.baseUrl "https://sim.example.com/v1#\u2026" has a query or fragment (? or #): the API\'s paths are added after the base address, so each call would go to a wrong address | give the API base address alone, e.g. baseUrl: https://api.openai.com/v1; a key goes in apiKey, not in the address',
      '13: meaning.baseUrl "${MEANING_BASE}" (with the value of MEANING_BASE) has a query or fragment (? or #): the API\'s paths are added after the base address, so each call would go to a wrong address | give the API base address alone, e.g. baseUrl: https://api.openai.com/v1; a key goes in apiKey, not in the address',
    ]);
    // The agent's address is requested as written: a query there is the agent's own.
    expect(JSON.stringify(r.errors)).not.toMatch(/SECRET|AGENTQ1/);
  });
});

describe('a password written in a base address that is no URL is not shown', () => {
  it('judge, simulator and meaning base addresses show the user and *** (as agent.url does), or *** for a token alone', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: "ftp://user:PWA1@h/x"\njudge:\n  apiKey: k\n  baseUrl: "ftp://user:PWJ1@h/x"\nsimulator:\n  baseUrl: "https://user:PWS1@h st/x"\nmeaning:\n  baseUrl: "ftp://TOKENM1@h/x"\n',
    });
    expect(r.errors.map((e) => `${e.line}: ${e.message}`)).toEqual([
      '2: agent.url "ftp://user:***@h/x" uses ftp, not http or https',
      '5: judge.baseUrl "ftp://user:***@h/x" uses ftp, not http or https',
      '7: simulator.baseUrl "https://user:***@h st/x" is not a valid URL',
      '9: meaning.baseUrl "ftp://***@h/x" uses ftp, not http or https',
    ]);
  });
});
