// Valid YAML that means something else than it looks (src/suite/yaml-traps.ts; docs/fixtures.md,
// "Text YAML reads otherwise"): a user turn cut at a ` #`, a value all comment, a value in curly
// quotes, the next item written inside a list of the item above (item-file.ts, nextItemInside).
// Through the real loader, with real files in a temporary folder.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFixtureFile } from '../../src/suite/fixtures.js';
import { readYaml, type PathSegment, type SourceFile } from '../../src/suite/yaml/index.js';
import { loadSuite } from '../../src/suite/index.js';
import { C, F, load, OK_FIXTURE, repo } from './helpers.js';

const P = '.agent-replay/personas';

/** `file:line:column: message | fix` of each warning. */
const said = (issues: { file: string; line: number | null; column: number | null; message: string; fix: string }[]): string[] =>
  issues.map((i) => `${i.file}:${i.line ?? '-'}:${i.column ?? '-'}: ${i.message} | ${i.fix}`);

describe('a user turn cut at " #"', () => {
  it('says the message YAML cut at a " #", at the #, with both fixes, and reads it as YAML does', async () => {
    const r = await load({ [`${F}/order.yml`]: 'label: order\nmessage: Where is order #5521?\n' });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${F}/order.yml:2:25: fixture "order": the message on line 2 ends before "#5521?": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Where is order" | quote the message if # is part of it (message: "Where is order #5521?"); if "#5521?" is a comment, put it on a line of its own, or after the message in quotes (message: "Where is order" #5521?)`,
    ]);
    expect(r.suite?.fixtures.map((f) => f.message)).toEqual(['Where is order']);
  });

  it('says a tab before the # as a tab (an editor that inserts tabs), with CRLF line endings as with LF', async () => {
    const text = 'label: order\nmessage: Where is order\t#5521?\n';
    for (const written of [text, text.replace(/\n/g, '\r\n')]) {
      const r = await load({ [`${F}/order.yml`]: written });
      expect(said(r.warnings)).toEqual([
        `${F}/order.yml:2:25: fixture "order": the message on line 2 ends before "#5521?": YAML reads a # after a tab and the rest of the line as a comment, so the agent is sent "Where is order" | quote the message if # is part of it (message: "Where is order\\t#5521?"); if "#5521?" is a comment, put it on a line of its own, or after the message in quotes (message: "Where is order" #5521?)`,
      ]);
    }
  });

  it('says a deliberate comment after a message too, whose fix is to move it to a line of its own, which is then not said', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: greet\n    message: hi # greeting test\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: greet2\n    # greeting test\n    message: hi\n',
    });
    expect(said(r.warnings)).toEqual([
      `${F}/a.yml:3:17: fixture "greet": the message on line 3 ends before "# greeting test": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "hi" | quote the message if # is part of it (message: "hi # greeting test"); if "# greeting test" is a comment, put it on a line of its own, or after the message in quotes (message: "hi" # greeting test)`,
    ]);
  });

  it('says nothing of a # that YAML keeps: quoted, in a block, without a space before it, or on another line', async () => {
    const r = await load({
      [`${F}/kept.yml`]: [
        'fixtures:',
        '  - label: quoted',
        '    message: "Where is order #5521?"   # a comment after a quoted message cuts nothing',
        "  - label: single",
        "    message: 'order #5521'",
        '  - label: block',
        '    message: | # the block starts below',
        '      Where is order #5521?',
        '  - label: nospace',
        '    message: order#5521 please',
        '  - label: other  # a comment on the label line',
        '    message: hello',
        '    assert: { contains: "x" }   # and after the check',
        '  - { label: flow, message: hi } # a comment after the { }',
        '',
      ].join('\n'),
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.suite?.fixtures.map((f) => f.message)).toEqual(['Where is order #5521?', 'order #5521', 'Where is order #5521?\n', 'order#5521 please', 'hello', 'hi']);
  });

  it('says a message over several lines cut on its last line, at that line', async () => {
    const r = await load({ [`${F}/multi.yml`]: 'label: multi\nmessage: Where is\n  order #5521?\n' });
    expect(said(r.warnings)).toEqual([
      `${F}/multi.yml:3:9: fixture "multi": the message on line 3 ends before "#5521?": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Where is order" | quote the message if # is part of it (message: "Where is order #5521?"); if "#5521?" is a comment, put it on a line of its own, or after the message in quotes (message: "Where is order" #5521?)`,
    ]);
  });

  it("says a persona script's opening and follow-ups cut at a \" #\", a follow-up's fix as its list item", async () => {
    const r = await load({
      [`${P}/p.yml`]: 'label: p\nopening: Hello #there\nfollowUps:\n  - "Order #4 is fine"\n  - Order #5 please\nexpect:\n  conversations: [orders]\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${P}/p.yml:2:16: persona script "p": the opening on line 2 ends before "#there": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Hello" | quote the opening if # is part of it (opening: "Hello #there"); if "#there" is a comment, put it on a line of its own, or after the opening in quotes (opening: "Hello" #there)`,
      `${P}/p.yml:5:11: persona script "p": follow-up #2 on line 5 ends before "#5 please": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Order" | quote follow-up #2 if # is part of it (- "Order #5 please"); if "#5 please" is a comment, put it on a line of its own, or after follow-up #2 in quotes (- "Order" #5 please)`,
    ]);
  });

  it('tells a message or opening YAML read as a comment alone why it is empty, and to quote it', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: #5521 where is it?\n',
      [`${P}/p.yml`]: 'label: p\nopening:  #42  \nexpect:\n  conversations: [orders]\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:2:1: fixture "a": message must be a string, found an empty value (null) | YAML reads "#5521 where is it?" after "message:" as a comment, so message is empty: quote it if it is the text (message: "#5521 where is it?")`,
      `${P}/p.yml:2:1: persona script "p": opening must be a string, found an empty value (null) | YAML reads "#42" after "opening:" as a comment, so opening is empty: quote it if it is the text (opening: "#42")`,
    ]);
  });

  it("tells a follow-up or a simulated user's goal YAML read as a comment alone why it is empty: quote it, or remove the item", async () => {
    const r = await load({
      [`${P}/f.yml`]: 'label: f\nopening: hi\nfollowUps:\n  - # ask about refunds\n  - ok\n  -\n  -   #7 arrived broken \nexpect:\n  conversations: [orders]\n',
      [`${P}/g.yml`]: 'label: g\nuser:\n  goal: # a refund for order 5521\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/f.yml:4:3: persona script "f": followUps[0] must be a string, found an empty value (null) | YAML reads "# ask about refunds" after the "-" as a comment, so follow-up #1 is empty: quote it if it is the text (- "# ask about refunds"), or remove the item`,
      // An item with nothing after its "-" keeps the schema's fix: nothing was written.
      `${P}/f.yml:6:3: persona script "f": followUps[2] must be a string, found an empty value (null) | write the item after the "-" on line 6, or remove that line`,
      `${P}/f.yml:7:3: persona script "f": followUps[3] must be a string, found an empty value (null) | YAML reads "#7 arrived broken" after the "-" as a comment, so follow-up #4 is empty: quote it if it is the text (- "#7 arrived broken"), or remove the item`,
      `${P}/g.yml:3:3: persona script "g": user.goal must be a string, found an empty value (null) | YAML reads "# a refund for order 5521" after "goal:" as a comment, so goal is empty: quote it if it is the text (goal: "# a refund for order 5521")`,
    ]);
  });

  it("says a simulated user's goal and instructions cut at a \" #\", as the simulator is given them", async () => {
    const r = await load({
      [`${P}/g.yml`]: 'label: g\nuser:\n  goal: get a refund for order #5521\n  instructions: be\tbrief #short\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
      [`${P}/ok.yml`]: 'label: ok\nuser:\n  goal: "get a refund for order #5521"   # quoted: kept\n  # a comment of its own\n  instructions: be brief\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings.filter((w) => w.line !== 1))).toEqual([
      `${P}/g.yml:3:32: persona script "g": user.goal on line 3 ends before "#5521": YAML reads a # after a space and the rest of the line as a comment, so the simulator is given the goal "get a refund for order" | quote user.goal if # is part of it (goal: "get a refund for order #5521"); if "#5521" is a comment, put it on a line of its own, or after user.goal in quotes (goal: "get a refund for order" #5521)`,
      `${P}/g.yml:4:26: persona script "g": user.instructions on line 4 ends before "#short": YAML reads a # after a space and the rest of the line as a comment, so the simulator is given the instructions "be\\tbrief" | quote user.instructions if # is part of it (instructions: "be\\tbrief #short"); if "#short" is a comment, put it on a line of its own, or after user.instructions in quotes (instructions: "be\\tbrief" #short)`,
    ]);
    // A tab inside the text is kept, and the cut still said.
    expect(r.suite?.personas.find((p) => p.label === 'g')?.user).toEqual({ goal: 'get a refund for order', instructions: 'be\tbrief', maxTurns: 3 });
  });

  it("warns of a simulated user's instructions YAML read as a comment alone, at the #: the simulator is given none", async () => {
    const r = await load({
      [`${P}/i.yml`]: 'label: i\nuser:\n  goal: get a refund\n  instructions:   # be brief and impatient\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
      // Nothing after the key, or the comment on a line of its own: no instructions, as written.
      [`${P}/ok.yml`]: 'label: ok\nuser:\n  goal: get a refund\n  instructions:\n  # none yet\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
      [`${P}/ok2.yml`]: 'label: ok2\nuser:\n  goal: get a refund\n  instructions:\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings.filter((w) => w.line !== 1))).toEqual([
      `${P}/i.yml:4:19: persona script "i": YAML reads "# be brief and impatient" after "instructions:" as a comment, so user.instructions is empty: the simulator is given no instructions | quote it if it is the text (instructions: "# be brief and impatient"); if it is a comment, put it on a line of its own, or remove instructions`,
    ]);
    // Loaded as YAML reads it: no instructions.
    expect(r.suite?.personas.find((p) => p.label === 'i')?.user).toEqual({ goal: 'get a refund', instructions: null, maxTurns: 3 });
  });

  it("warns of a fixture's or a script's persona and a fixture's assert YAML read as a comment alone: no persona tag, no check (a probe)", async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\npersona: # impatient customer\nassert:   # contains "30 days"\n',
      [`${F}/b.yml`]: 'label: b\nmessage: hi\nassert: # TODO\n',
      [`${P}/p.yml`]: 'label: p\npersona:  # impatient customer\nopening: hi\nexpect:\n  terminal: finish\n',
      // Nothing after the key, or the comment on a line of its own: as written, not said.
      [`${F}/ok.yml`]: 'label: ok\nmessage: hi\npersona:\n# a probe for now\nassert:\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${F}/a.yml:3:10: fixture "a": YAML reads "# impatient customer" after "persona:" as a comment, so persona is empty: the fixture has no persona tag | quote it if it is the text (persona: "# impatient customer"); if it is a comment, put it on a line of its own, or remove persona`,
      `${F}/a.yml:4:11: fixture "a": YAML reads "# contains \\"30 days\\"" after "assert:" as a comment, so assert is empty: the fixture has no check, so it passes as a probe whatever the reply | write the check as a mapping if it is the check meant (assert: { contains: "30 days" }); if it is a comment, put it on a line of its own, or remove assert`,
      `${F}/b.yml:3:9: fixture "b": YAML reads "# TODO" after "assert:" as a comment, so assert is empty: the fixture has no check, so it passes as a probe whatever the reply | write the check after assert:, e.g. assert: { contains: "30 days" }; if it is a comment, put it on a line of its own, or remove assert`,
      `${P}/p.yml:2:11: persona script "p": YAML reads "# impatient customer" after "persona:" as a comment, so persona is empty: the script has no persona tag | quote it if it is the text (persona: "# impatient customer"); if it is a comment, put it on a line of its own, or remove persona`,
    ]);
    // Loaded as YAML reads them: no persona, no check.
    expect(r.suite?.fixtures.map((f) => [f.label, f.persona, f.assertion])).toEqual([
      ['a', null, null],
      ['b', null, null],
      ['ok', null, null],
    ]);
    expect(r.suite?.personas.map((p) => [p.label, p.persona])).toEqual([['p', null]]);
  });

  it('says a value YAML read as a comment alone after an anchor or tag (instructions: &i # be brief), and keeps the anchor in the fix', async () => {
    const r = await load({
      [`${P}/i.yml`]: 'label: i\nuser:\n  goal: get a refund\n  instructions: &i # be brief\n  maxTurns: 3\nexpect:\n  terminal: finish\n',
      [`${P}/o.yml`]: 'label: o\nopening: &o   # 42\nfollowUps:\n  - &f #7 arrived broken\nexpect:\n  conversations: [orders]\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/o.yml:2:1: persona script "o": opening must be a string, found an empty value (null) | YAML reads "# 42" after "opening:" as a comment, so opening is empty: quote it if it is the text (opening: &o "# 42")`,
      `${P}/o.yml:4:3: persona script "o": followUps[0] must be a string, found an empty value (null) | YAML reads "#7 arrived broken" after the "-" as a comment, so follow-up #1 is empty: quote it if it is the text (- &f "#7 arrived broken"), or remove the item`,
    ]);
    expect(said(r.warnings.filter((w) => w.line !== 1))).toEqual([
      `${P}/i.yml:4:20: persona script "i": YAML reads "# be brief" after "instructions:" as a comment, so user.instructions is empty: the simulator is given no instructions | quote it if it is the text (instructions: &i "# be brief"); if it is a comment, put it on a line of its own, or remove instructions`,
    ]);
  });

  it('tells an expect.criteria or expect.conversations item YAML read as a comment alone why it is empty, as a follow-up is', async () => {
    const r = await load({
      [`${P}/c.yml`]: 'label: c\nopening: hi\nexpect:\n  criteria:\n    - # the agent apologises\n    - The agent offers a refund\n    -\n  conversations:\n    -   # refunds \n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/c.yml:5:5: persona script "c": expect.criteria[0] must be a string, found an empty value (null) | YAML reads "# the agent apologises" after the "-" as a comment, so expect.criteria[0] is empty: quote it if it is the text (- "# the agent apologises"), or remove the item`,
      // Nothing after its "-": the schema's fix, to write it.
      `${P}/c.yml:7:5: persona script "c": expect.criteria[2] must be a string, found an empty value (null) | write the item after the "-" on line 7, or remove that line`,
      `${P}/c.yml:9:5: persona script "c": expect.conversations[0] must be a string, found an empty value (null) | YAML reads "# refunds" after the "-" as a comment, so expect.conversations[0] is empty: quote it if it is the text (- "# refunds"), or remove the item`,
    ]);
  });

  it('tells a fixture or a persona script commented out but for its "-" why it is empty: remove the item', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - # label: refund, message: hi\n  - label: b\n    message: hi\n  -\n',
      [`${P}/p.yml`]: 'personas:\n  -    # the refund script, for later\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:2:3: fixture #1 must be a mapping with label and message, found an empty value (null) | YAML reads "# label: refund, message: hi" after the "-" as a comment, so fixture #1 is empty: remove the item, or write it as { label: my-fixture, message: "..." }`,
      // Nothing after its "-": nothing was written, and the fix is to write it.
      `${F}/a.yml:5:3: fixture #3 must be a mapping with label and message, found an empty value (null) | write it as { label: my-fixture, message: "..." }`,
      `${P}/p.yml:2:3: persona script #1 must be a mapping with label, opening and expect, found an empty value (null) | YAML reads "# the refund script, for later" after the "-" as a comment, so persona script #1 is empty: remove the item, or write it as { label: my-script, opening: "...", expect: { ... } }`,
    ]);
  });

  // Each key the schema takes empty (none), all comment: a warning at the #, as persona's, with what none does and a fix for the value meant.
  it.each([
    [
      'a fixture\'s repeat, the count in the comment',
      `${F}/r.yml`,
      'label: r\nmessage: hi\nrepeat:  # 3\n',
      `${F}/r.yml:3:10: fixture "r": YAML reads "# 3" after "repeat:" as a comment, so repeat is empty: the fixture runs as config.yml's repeat says, or once | write it as a mapping if it is the repeat meant (repeat: { count: 3 }); if it is a comment, put it on a line of its own, or remove repeat`,
    ],
    [
      "a persona script's repeat, no count in the comment",
      `${P}/r.yml`,
      'label: r\nopening: hi\nrepeat: &n # flaky\nexpect:\n  terminal: finish\n',
      `${P}/r.yml:3:12: persona script "r": YAML reads "# flaky" after "repeat:" as a comment, so repeat is empty: the script runs as config.yml's repeat says, or once | write it after repeat:, e.g. repeat: &n { count: 3 }; if it is a comment, put it on a line of its own, or remove repeat`,
    ],
    [
      "a fixture's repeat, a count above the most it may have in the comment",
      `${F}/r.yml`,
      'label: r\nmessage: hi\nrepeat: # 50\n',
      `${F}/r.yml:3:9: fixture "r": YAML reads "# 50" after "repeat:" as a comment, so repeat is empty: the fixture runs as config.yml's repeat says, or once | write it after repeat:, e.g. repeat: { count: 3 }; if it is a comment, put it on a line of its own, or remove repeat`,
    ],
    [
      "a persona script's followUps",
      `${P}/f.yml`,
      'label: f\nopening: hi\nfollowUps: # ask about refunds\nexpect:\n  terminal: finish\n',
      `${P}/f.yml:3:12: persona script "f": YAML reads "# ask about refunds" after "followUps:" as a comment, so followUps is empty: the script sends the opening alone | write it after followUps:, e.g. followUps: ["Where is my order?"]; if it is a comment, put it on a line of its own, or remove followUps`,
    ],
    [
      "a persona script's mocks",
      `${P}/m.yml`,
      'label: m\nopening: hi\nmocks: # find_order returns shipped\nexpect:\n  terminal: finish\n',
      `${P}/m.yml:3:8: persona script "m": YAML reads "# find_order returns shipped" after "mocks:" as a comment, so mocks is empty: no tool is mocked | write it after mocks:, e.g. mocks: [{ tool: find_order, output: { status: shipped } }]; if it is a comment, put it on a line of its own, or remove mocks`,
    ],
    [
      "a persona script's expect.criteria",
      `${P}/c.yml`,
      'label: c\nopening: hi\nexpect:\n  terminal: finish\n  criteria: # the agent apologises\n',
      `${P}/c.yml:5:13: persona script "c": YAML reads "# the agent apologises" after "criteria:" as a comment, so expect.criteria is empty: it checks nothing | write it after criteria:, e.g. criteria: ["The agent apologises"]; if it is a comment, put it on a line of its own, or remove criteria`,
    ],
    [
      "a persona script's expect.maxTurnLatencyMs",
      `${P}/l.yml`,
      'label: l\nopening: hi\nexpect:\n  maxTurnLatencyMs:   # 2000\n  conversations: [refunds]\n',
      `${P}/l.yml:4:23: persona script "l": YAML reads "# 2000" after "maxTurnLatencyMs:" as a comment, so expect.maxTurnLatencyMs is empty: it checks nothing | write it after maxTurnLatencyMs:, e.g. maxTurnLatencyMs: 5000; if it is a comment, put it on a line of its own, or remove maxTurnLatencyMs`,
    ],
  ])('warns of %s YAML read as a comment alone, at the #', async (_shape, file, text, warning) => {
    const r = await load({ [file]: text });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([warning]);
  });

  it("says in the no-expectation error's fix that every expect key was read as a comment alone", async () => {
    const r = await load({
      [`${P}/t.yml`]: 'label: t\nopening: hi\nexpect:\n  terminal: # finish\n',
      [`${P}/u.yml`]: 'label: u\nopening: hi\nexpect:\n  terminal: # finish\n  criteria: # the agent apologises\n',
      // A key left bare beside one commented: not all of them comments, the fix as it was.
      [`${P}/v.yml`]: 'label: v\nopening: hi\nexpect:\n  terminal: # finish\n  criteria:\n',
    });
    const fixes = r.errors.map((e) => `${e.file}:${e.line}: ${e.fix}`);
    const add = 'add at least one of conversations, terminal, toolCalled, toolNotCalled, criteria, reply, maxTurnLatencyMs under expect, e.g. expect: { conversations: [refunds] }';
    expect(fixes).toEqual([
      `${P}/t.yml:4: YAML reads "# finish" after "terminal:" on line 4 as a comment, so expect.terminal is empty: write the value after its key, or ${add}`,
      `${P}/u.yml:4: expect's keys on lines 4, 5 hold a comment alone, which YAML reads as empty: write each value after its key, or ${add}`,
      `${P}/v.yml:4: ${add}`,
    ]);
  });

  it('says nothing of those keys left empty, or with the comment on a line of its own', async () => {
    const r = await load({
      [`${F}/r.yml`]: 'label: r\nmessage: hi\nrepeat:\n# 3 once it is stable\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\nmocks:\nrepeat:\nexpect:\n  terminal: finish\n  criteria:\n  # the agent apologises\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
  });

  it('tells a label YAML read as a comment alone why it is empty, with a label close to the comment', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: # refund policy\nmessage: hi\n',
      [`${P}/p.yml`]: 'personas:\n  - label: &l #\n    opening: hi\n    expect:\n      terminal: finish\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:1:1: label must be a string, found an empty value (null) | YAML reads "# refund policy" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: refund-policy)`,
      `${P}/p.yml:2:5: persona script #1: label must be a string, found an empty value (null) | YAML reads "#" after "label:" as a comment, so label is empty: write it after label:, e.g. label: &l refund-policy`,
    ]);
  });

  it('offers a label read as a comment alone one the suite does not use, nor offers another item', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: # refund policy\n    message: hi\n  - label: refund-policy\n    message: hi\n  - label: "café"\n    message: hi\n',
      [`${P}/p.yml`]: 'personas:\n  - label: # Café\n    opening: hi\n    expect:\n      terminal: finish\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line ?? '-'}: ${e.fix}`)).toEqual([
      `${F}/a.yml:2: YAML reads "# refund policy" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: refund-policy-2; refund-policy is used already)`,
      `${F}/a.yml:6: rename it, e.g. label: cafe`,
      `${P}/p.yml:2: YAML reads "# Café" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: Cafe-2; Cafe is offered for "café" at ${F}/a.yml:6)`,
    ]);
  });

  it('offers labels in file order, a label read as a comment above an invalid one first', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: # x\n    message: hi\n  - label: "x!"\n    message: hi\n',
      [`${F}/b.yml`]: 'label: "y!"\nmessage: hi\n',
      [`${P}/p.yml`]: 'label: # y\nopening: hi\nexpect:\n  terminal: finish\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line ?? '-'}: ${e.fix}`)).toEqual([
      `${F}/a.yml:2: YAML reads "# x" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: x)`,
      `${F}/a.yml:4: rename it, e.g. label: x-2 (x is offered for "# x" at ${F}/a.yml:2)`,
      `${F}/b.yml:1: rename it, e.g. label: y`,
      `${P}/p.yml:1: YAML reads "# y" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: y-2; y is offered for "y!" at ${F}/b.yml:1)`,
    ]);
  });

  it('offers labels in the order the files are read, also where their shown paths sort otherwise', async () => {
    // From inside the fixtures folder (--dir ..), a.yml is shown as "a.yml" and the persona file as
    // "../personas/p.yml", which sorts first as text: the fixtures are read first all the same.
    const root = await repo({
      [`${F}/a.yml`]: 'label: "y!"\nmessage: hi\n',
      [`${P}/p.yml`]: 'label: # y\nopening: hi\nexpect:\n  terminal: finish\n',
    });
    const r = await loadSuite({ dir: '..', cwd: join(root, F), env: {}, untrustedSuite: null });
    expect(r.errors.map((e) => `${e.file}:${e.line ?? '-'}: ${e.fix}`)).toEqual([
      'a.yml:1: rename it, e.g. label: y',
      '../personas/p.yml:1: YAML reads "# y" after "label:" as a comment, so label is empty: write the label if it is the label meant (label: y-2; y is offered for "y!" at a.yml:1)',
    ]);
  });

  it('keeps the anchor of a number or true/false written where text belongs in the fix that quotes it, not a tag that made it a number', async () => {
    const r = await load({
      [`${P}/p.yml`]: 'label: p\nopening: &o true\nfollowUps:\n  - &a 42\n  - !!int &b 7\n  - 8\nexpect:\n  conversations: [orders]\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:2:13: persona script "p": opening must be a string, found the boolean true | put the value in quotes: opening: &o "true"`,
      `${P}/p.yml:4:8: persona script "p": followUps[0] must be a string, found the number 42 | put the value in quotes: - &a "42"`,
      `${P}/p.yml:5:14: persona script "p": followUps[1] must be a string, found the number 7 | put the value in quotes: - &b "7"`,
      `${P}/p.yml:6:5: persona script "p": followUps[2] must be a string, found the number 8 | put the value in quotes: - "8"`,
    ]);
  });

  it('keeps the anchor and the tag written before a cut message in both fixes, and before a value in curly quotes', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: &q Where is #5?\n  - label: b\n    message: *q\n  - label: c\n    message: !!str &t Order #6\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\n  - !!str Order #7\nexpect:\n  conversations: [orders]\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${F}/a.yml:3:26: fixture "a": the message on line 3 ends before "#5?": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Where is" | quote the message if # is part of it (message: &q "Where is #5?"); if "#5?" is a comment, put it on a line of its own, or after the message in quotes (message: &q "Where is" #5?)`,
      `${F}/a.yml:7:29: fixture "c": the message on line 7 ends before "#6": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Order" | quote the message if # is part of it (message: !!str &t "Order #6"); if "#6" is a comment, put it on a line of its own, or after the message in quotes (message: !!str &t "Order" #6)`,
      `${P}/p.yml:4:17: persona script "p": follow-up #1 on line 4 ends before "#7": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Order" | quote follow-up #1 if # is part of it (- !!str "Order #7"); if "#7" is a comment, put it on a line of its own, or after follow-up #1 in quotes (- !!str "Order" #7)`,
    ]);
    // Written on the key's line, with the text on the next: kept too.
    const below = await load({
      [`${F}/b.yml`]: 'fixtures:\n  - label: a\n    message: &q\n      Where is #5?\n  - label: b\n    message: !!str &r   # the order\n\n      Order #6\n  - label: c\n    message: *q\n',
      [`${P}/b.yml`]: 'label: p\nopening: hi\nfollowUps:\n  - &f\n    Order #7\n  - *f\nexpect:\n  conversations: [orders]\n',
    });
    expect(below.errors).toEqual([]);
    expect(below.warnings.map((w) => `${w.file}:${w.line ?? '-'}: ${w.fix}`)).toEqual([
      `${F}/b.yml:4: quote the message if # is part of it (message: &q "Where is #5?"); if "#5?" is a comment, put it on a line of its own, or after the message in quotes (message: &q "Where is" #5?)`,
      `${F}/b.yml:8: quote the message if # is part of it (message: !!str &r "Order #6"); if "#6" is a comment, put it on a line of its own, or after the message in quotes (message: !!str &r "Order" #6)`,
      `${P}/b.yml:5: quote follow-up #1 if # is part of it (- &f "Order #7"); if "#7" is a comment, put it on a line of its own, or after follow-up #1 in quotes (- &f "Order" #7)`,
    ]);
    const curlyBelow = await load({ [`${F}/c.yml`]: 'label: c\nmessage: &m\n  “Where is my order?”\n' });
    expect(curlyBelow.warnings.map((w) => w.fix)).toEqual(['write straight quotes (message: &m "Where is my order?") or none']);
    // Curly quotes' fix keeps them too.
    const curly = await load({ [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert: { contains: !!str &d “30 days” }\n' });
    expect(curly.warnings.map((w) => w.fix)).toEqual(['write straight quotes (contains: !!str &d "30 days") or none']);
    // The fix as written is read as meant: the alias too is sent the whole text.
    const fixed = await load({ [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: &q "Where is #5?"\n  - label: b\n    message: *q\n' });
    expect(fixed.warnings).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.message)).toEqual(['Where is #5?', 'Where is #5?']);
  });

  it('looks at no position and splits no text of a file without a space before a #', () => {
    /** The paths whose position the checker asked for. */
    const asked = (text: string): PathSegment[][] => {
      const loaded = readYaml('f.yml', text);
      const src = loaded.src as SourceFile;
      const paths: PathSegment[][] = [];
      const counted: SourceFile = { ...src, valueAt: (path) => (paths.push([...path]), src.valueAt(path)) };
      expect(checkFixtureFile(counted, loaded.data).warnings).toEqual([]);
      return paths;
    };
    const isMessage = (p: PathSegment[]): boolean => p.at(-1) === 'message';
    // A whole-line comment at the start of a line has no space before its #.
    expect(asked('# refunds\nfixtures:\n  - label: a\n    message: order#1 please\n  - label: b\n    message: hi\n').filter(isMessage)).toEqual([]);
    // With a " #" elsewhere, each message's line is looked at, and the message is not said.
    expect(asked('fixtures:\n  - label: a   # first\n    message: hi\n').filter(isMessage)).toEqual([['fixtures', 0, 'message']]);
  });
});

describe('one file at a time', () => {
  it('reads each file by its own text: two suites loaded at once (base and head) are each told of their own lines', async () => {
    const base = 'label: order\nmessage: Where is order #5521?\n';
    // The head's text differs from the base's only after the cut, and on a line before it.
    const head = 'label: order\n\nmessage: Where is order #5521 now?\n';
    const [b, h] = await Promise.all([load({ [`${F}/order.yml`]: base }), load({ [`${F}/order.yml`]: head })]);
    expect(said(b.warnings).map((w) => w.split(' | ')[0])).toEqual([
      `${F}/order.yml:2:25: fixture "order": the message on line 2 ends before "#5521?": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Where is order"`,
    ]);
    expect(said(h.warnings).map((w) => w.split(' | ')[0])).toEqual([
      `${F}/order.yml:3:25: fixture "order": the message on line 3 ends before "#5521 now?": YAML reads a # after a space and the rest of the line as a comment, so the agent is sent "Where is order"`,
    ]);
  });

  it('keeps nothing of a file between checks: the lines are passed down from the file\'s checker, never held by the module', () => {
    const text = readFileSync(join(import.meta.dirname, '../../src/suite/yaml-traps.ts'), 'utf8');
    expect(text.split('\n').filter((l) => /^(?:export )?(?:let|var) /.test(l))).toEqual([]);
  });
});

describe('a value in curly quotes', () => {
  it('says a contains, a regex and a message in curly quotes, each at its value, with straight quotes in the fix', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: policy\nmessage: Can I get my money back?\nassert: { contains: “30 days” }\n',
      [`${F}/b.yml`]: 'label: quoted\nmessage: “Where is my order?”\nassert: [{ regex: ‘\\d+ days’ }, { maxLatencyMs: 2000 }]\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${F}/a.yml:3:21: fixture "policy": the contains value on line 3 is in curly quotes “30 days”, which are part of the text: the check looks for them in the reply | write straight quotes (contains: "30 days") or none`,
      `${F}/b.yml:2:10: fixture "quoted": the message on line 2 is in curly quotes “Where is my order?”, which are part of the text: the agent is sent them | write straight quotes (message: "Where is my order?") or none`,
      `${F}/b.yml:3:19: fixture "quoted": check #1: the regex value on line 3 is in curly quotes ‘\\d+ days’, which are part of the text: the pattern matches them in the reply | write straight quotes (regex: "\\\\d+ days") or none`,
    ]);
    // Read as written: the quotes are part of the check.
    expect(r.suite?.fixtures[0]?.assertion).toEqual({ kind: 'contains', value: '“30 days”' });
  });

  it("says a persona script's follow-up and reply check in curly quotes", async () => {
    const r = await load({
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps:\n  - “Thanks”\nexpect:\n  reply: [{ contains: “ok”, turn: 2 }]\n',
    });
    expect(r.errors).toEqual([]);
    expect(said(r.warnings)).toEqual([
      `${P}/p.yml:4:5: persona script "p": follow-up #1 on line 4 is in curly quotes “Thanks”, which are part of the text: the agent is sent them | write straight quotes (- "Thanks") or none`,
      `${P}/p.yml:6:23: persona script "p": expect.reply[0]: the contains value on line 6 is in curly quotes “ok”, which are part of the text: the check looks for them in the reply | write straight quotes (contains: "ok") or none`,
    ]);
  });

  it('writes the fix for a follow-up in curly quotes in a list in [ ] as an item of that list, without a "-"', async () => {
    const r = await load({
      [`${P}/p.yml`]: 'label: p\nopening: hi\nfollowUps: [ Hi !, “Thanks” ]\nexpect:\n  conversations: [orders]\n',
      [`${P}/q.yml`]: 'label: q\nopening: hi\nfollowUps: [\n  ok,\n  &t “Thanks”\n]\nexpect:\n  conversations: [orders]\n',
      // After its "-", past an anchor, or on the line below it: with the "-".
      [`${P}/r.yml`]: 'label: r\nopening: hi\nfollowUps:\n  - &a “Thanks”\n  -   # then\n    “Bye”\nexpect:\n  conversations: [orders]\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => `${w.file}:${w.line ?? '-'}: ${w.fix}`)).toEqual([
      `${P}/p.yml:3: write straight quotes ("Thanks") or none`,
      `${P}/q.yml:5: write straight quotes (&t "Thanks") or none`,
      `${P}/r.yml:4: write straight quotes (- &a "Thanks") or none`,
      `${P}/r.yml:6: write straight quotes (- "Bye") or none`,
    ]);
    // The schema's fix for an item read as a number says it so too (the one place that decides: itemLead).
    const numbers = await load({ [`${P}/n.yml`]: 'label: n\nopening: hi\nfollowUps:\n  - &a 42\n  -\n    43\nexpect:\n  conversations: [orders]\n', [`${P}/m.yml`]: 'label: m\nopening: hi\nfollowUps: [ ok,\n  44 ]\nexpect:\n  conversations: [orders]\n' });
    expect(numbers.errors.map((e) => `${e.file}:${e.line ?? '-'}: ${e.fix}`)).toEqual([
      `${P}/m.yml:4: put the value in quotes: "44"`,
      `${P}/n.yml:4: put the value in quotes: - &a "42"`,
      `${P}/n.yml:6: put the value in quotes: - "43"`,
    ]);
  });

  it('says nothing of curly quotes inside a value, of one quote alone, of straight quotes, or of a judge criterion', async () => {
    const r = await load({
      [`${F}/a.yml`]: [
        'fixtures:',
        '  - { label: inside, message: hi, assert: { contains: the “30 days” policy } }',
        '  - { label: apostrophe, message: ’tis, assert: { contains: It’s } }',
        '  - { label: straight, message: hi, assert: { contains: "30 days" } }',
        '  - { label: judge, message: hi, assert: { judge: “Polite and brief” } }',
        '',
      ].join('\n'),
    });
    expect(r.errors).toEqual([]);
    // The one warning: no judge is configured for the judge check.
    expect(r.warnings.map((w) => w.message)).toEqual(['1 fixture uses a judge assertion (first: "judge") but no judge is configured: it is not evaluated']);
  });
});

describe('the next item written inside a list of the item above', () => {
  it("says a fixture written inside assert's list as the next fixture, at its \"-\", with the line as it should read", async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert:\n    - contains: x\n    - label: next\n      message: hello\n\n      assert: { contains: y }\n  - label: c\n    message: hi\n',
      // Deeper, at the column of assert's items, in a bare list: one line.
      [`${F}/b.yml`]: '- label: b\n  message: hi\n  assert:\n    - contains: x\n    - label: b2\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:6:5: fixture "a": assert[1] on line 6 has a fixture's keys (label, message, assert): the next fixture, written inside the list of assert above, which YAML reads as one more item of that list | write it at the column of the fixtures' "-" (column 3, not 5), so that line 6 reads\n      - label: next\n  and move lines 7 to 9 left by 2 spaces too`,
      `${F}/b.yml:5:5: fixture "b": assert[1] on line 5 has a fixture's keys (label): the next fixture, written inside the list of assert above, which YAML reads as one more item of that list | write it at the column of the fixtures' "-" (column 1, not 5), so that line 5 reads\n    - label: b2`,
    ]);
    // The fix as written: three fixtures, no error.
    const fixed = await load({ [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert:\n    - contains: x\n  - label: next\n    message: hello\n\n    assert: { contains: y }\n  - label: c\n    message: hi\n' });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['a', 'next', 'c']);
  });

  it("says a persona script written inside followUps' or mocks' list as the next script", async () => {
    const r = await load({
      [`${P}/p.yml`]: 'personas:\n  - label: a\n    opening: hi\n    expect:\n      terminal: finish\n    followUps:\n    - ok\n    - label: b\n      opening: hi\n      expect:\n        terminal: finish\n',
      [`${P}/q.yml`]: 'personas:\n  - label: q\n    opening: hi\n    expect:\n      terminal: finish\n    mocks:\n    - tool: find_order\n    - label: r\n      opening: hi\n',
    });
    expect(said(r.errors)).toEqual([
      `${P}/p.yml:8:5: persona script "a": followUps[1] on line 8 has a persona script's keys (label, opening, expect): the next persona script, written inside the list of followUps above, which YAML reads as one more item of that list | write it at the column of the persona scripts' "-" (column 3, not 5), so that line 8 reads\n      - label: b\n  and move lines 9 to 11 left by 2 spaces too`,
      `${P}/q.yml:8:5: persona script "q": mocks[1] on line 8 has a persona script's keys (label, opening): the next persona script, written inside the list of mocks above, which YAML reads as one more item of that list | write it at the column of the persona scripts' "-" (column 3, not 5), so that line 8 reads\n      - label: r\n  and move line 9 left by 2 spaces too`,
    ]);
  });

  it("keeps the schema's words for a mapping with keys no item has", async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n  - label: a\n    message: hi\n    assert:\n    - contains: x\n    - label: next\n      equals: y\n',
      // In a file that is one fixture, a key of that fixture after it: its keys, not the next fixture's.
      [`${F}/one.yml`]: 'label: one\nassert:\n- contains: x\n- label: two\nmessage: hi\n',
    });
    expect(r.errors.map((e) => `${e.file}:${e.line ?? '-'}: ${e.message.split(';')[0] as string}`)).toEqual([
      `${F}/a.yml:6: fixture "a": unknown key "label" in assert[1]`,
      `${F}/a.yml:7: fixture "a": unknown key "equals" in assert[1]`,
      `${F}/one.yml:4: fixture "one": unknown key "label" in assert[1]`,
    ]);
  });

  it('says the next item written inside a list of a file that is one item as the next item, the file made a list', async () => {
    const r = await load({
      [`${F}/one.yml`]: '# one fixture\nlabel: one\nmessage: hi\nassert:\n- contains: x\n- label: two\n  message: yo\n',
      // Deeper, at the column of assert's items: the next fixture's lines moved left too.
      [`${F}/deep.yml`]: 'label: d\nmessage: hi\nassert:\n  - contains: x\n  - label: d2\n    message: yo\n',
      [`${P}/p.yml`]: 'label: p\nopening: hi\nexpect: { terminal: finish }\nfollowUps:\n  - ok\n  - label: q\n    opening: hi\n    expect: { terminal: finish }\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/deep.yml:5:3: fixture "d": assert[1] on line 5 has a fixture's keys (label, message): the next fixture, written inside the list of assert above, which YAML reads as one more item of that list | make the file a list of fixtures: write "- " before line 1, so that it reads\n    - label: d\n  and indent lines 2 to 4 by 2 spaces; line 5 then reads\n    - label: d2\n  and move line 6 left by 2 spaces too`,
      `${F}/one.yml:6:1: fixture "one": assert[1] on line 6 has a fixture's keys (label, message): the next fixture, written inside the list of assert above, which YAML reads as one more item of that list | make the file a list of fixtures: write "- " before line 2, so that it reads\n    - label: one\n  and indent lines 3 to 5 by 2 spaces; line 6 stays as it is, its "-" at the column of line 2's`,
      `${P}/p.yml:6:3: persona script "p": followUps[1] on line 6 has a persona script's keys (label, opening, expect): the next persona script, written inside the list of followUps above, which YAML reads as one more item of that list | make the file a list of persona scripts: write "- " before line 1, so that it reads\n    - label: p\n  and indent lines 2 to 5 by 2 spaces; line 6 then reads\n    - label: q\n  and move lines 7 to 8 left by 2 spaces too`,
    ]);
    // The fixes as written: two items in each file, no error.
    const fixed = await load({
      [`${F}/one.yml`]: '# one fixture\n- label: one\n  message: hi\n  assert:\n  - contains: x\n- label: two\n  message: yo\n',
      [`${F}/deep.yml`]: '- label: d\n  message: hi\n  assert:\n    - contains: x\n- label: d2\n  message: yo\n',
      [`${P}/p.yml`]: '- label: p\n  opening: hi\n  expect: { terminal: finish }\n  followUps:\n    - ok\n- label: q\n  opening: hi\n  expect: { terminal: finish }\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['d', 'd2', 'one', 'two']);
    expect(fixed.suite?.personas.map((p) => p.label)).toEqual(['p', 'q']);
  });
});

describe('the text of a | or > block at its key\'s column, which YAML reads as keys or items of their own', () => {
  const errs = (r: { errors: { file: string; line: number | null; column: number | null; message: string; fix: string }[] }): string[] => said(r.errors);

  it('is one error at the text, its fix indenting it under the key, not "message is empty" and the schema\'s words for each line', async () => {
    const r = await load({
      [`${F}/items.yml`]: 'fixtures:\n  - label: a\n    message: |\n  - Where is my order?\n  - It was due Monday.\n  - label: b\n    message: hi\n',
      [`${F}/key.yml`]: 'label: c\nmessage: >-\nNote: where is my order\n',
    });
    expect(errs(r)).toEqual([
      `${F}/items.yml:4:3: line 4, the text of the | block of "message" on line 3, is indented by 2 spaces, no deeper than "message", so YAML reads the block as empty and line 4 as one more item of the list | indent the block's text deeper than "message": by 6 spaces, so that line 4 reads\n          - Where is my order?\n  and each line of the text after it too`,
      `${F}/key.yml:3:1: line 3, the text of the >- block of "message" on line 2, is indented by no spaces, no deeper than "message", so YAML reads the block as empty and line 3 as a key of its own | indent the block's text deeper than "message": by 2 spaces, so that line 3 reads\n      Note: where is my order\n  and each line of the text after it too`,
    ]);
  });

  it("is said of a persona script's opening and a simulated user's goal alike", async () => {
    const r = await load({
      [`${F}/ok.yml`]: 'label: ok\nmessage: hi\n',
      [`${P}/a.yml`]: 'personas:\n  - label: a\n    opening: |\n  - Where is my order?\n',
      [`${P}/b.yml`]: 'label: b\nuser:\n  goal: |\n  Note: get a refund\n  maxTurns: 3\nexpect:\n  conversations: [x]\n',
    });
    expect(errs(r).filter((e) => e.includes('the text of the'))).toEqual([
      `${P}/a.yml:4:3: line 4, the text of the | block of "opening" on line 3, is indented by 2 spaces, no deeper than "opening", so YAML reads the block as empty and line 4 as one more item of the list | indent the block's text deeper than "opening": by 6 spaces, so that line 4 reads\n          - Where is my order?\n  and each line of the text after it too`,
      `${P}/b.yml:4:3: line 4, the text of the | block of "goal" on line 3, is indented by 2 spaces, no deeper than "goal", so YAML reads the block as empty and line 4 as a key of its own | indent the block's text deeper than "goal": by 4 spaces, so that line 4 reads\n        Note: get a refund\n  and each line of the text after it too`,
    ]);
    expect(errs(r).some((e) => / is empty |must be a mapping|unknown key/.test(e))).toBe(false);
  });

  it('is said of a "- |" followed by "- text" at its "-"\'s column in a list of text: the empty item\'s error in our words, with the indent fix', async () => {
    const r = await load({
      [`${F}/ok.yml`]: 'label: ok\nmessage: hi\n',
      [`${P}/a.yml`]: '- label: a\n  opening: hi\n  expect: { terminal: finish }\n  followUps:\n    - |\n    - Where is my order?\n      It was due Monday.\n    - ok\n',
      [`${P}/b.yml`]: '- label: b\n  opening: hi\n  followUps: [x]\n  expect:\n    criteria:\n      - >-\n\n      - The agent apologises\n',
    });
    expect(errs(r)).toEqual([
      `${P}/a.yml:6:5: line 6, the text of the | block of the "-" on line 5, is indented by 4 spaces, no deeper than the "-", so YAML reads the block as empty and line 6 as one more item of the list | indent the block's text deeper than the "-": by 6 spaces, so that line 6 reads\n          - Where is my order?\n  and each line of the text after it too\n  or, if line 6 is an item of its own, remove line 5`,
      `${P}/b.yml:8:7: line 8, the text of the >- block of the "-" on line 6, is indented by 6 spaces, no deeper than the "-", so YAML reads the block as empty and line 8 as one more item of the list | indent the block's text deeper than the "-": by 8 spaces, so that line 8 reads\n            - The agent apologises\n  and each line of the text after it too\n  or, if line 8 is an item of its own, remove line 6`,
    ]);
    // A list whose items are mappings, or a mapping after the "-": the schema's words, as before.
    const kept = await load({ [`${F}/a.yml`]: '- label: a\n  message: hi\n  assert:\n    - |\n    - contains: x\n' });
    expect(errs(kept).map((e) => e.split(' | ')[0])).toEqual([`${F}/a.yml:4:7: fixture "a": assert[0] must be a mapping, found the string ""`]);
  });

  it('is said in the same run as a syntax error in another item of the file, each at its line, in line order', async () => {
    const r = await load({
      [`${F}/ok.yml`]: 'label: ok\nmessage: hi\n',
      [`${P}/a.yml`]: '- label: a\n  opening: hi\n  expect: { terminal: finish }\n  followUps:\n    - |\n    - Where is my order?\n- label: b\n  opening: "hi\n  expect: { terminal: finish }\n',
      [`${P}/b.yml`]: '- label: c\n  opening hi\n  followUps: [x]\n  expect: { terminal: finish }\n- label: d\n  opening: hi\n  expect: { terminal: finish }\n  followUps:\n    - |\n    - Where is my order?\n',
      [`${F}/c.yml`]: '- label: e\n  message: |\n  Note: where is my order\n- label: f\n  message: "hi\n',
    });
    expect(errs(r)).toEqual([
      `${F}/c.yml:3:3: line 3, the text of the | block of "message" on line 2, is indented by 2 spaces, no deeper than "message", so YAML reads the block as empty and line 3 as a key of its own | indent the block's text deeper than "message": by 4 spaces, so that line 3 reads\n        Note: where is my order\n  and each line of the text after it too`,
      `${F}/c.yml:5:12: invalid YAML: the double quote opened here is never closed | close the value with " on this line (a " inside it is written \\")`,
      `${P}/a.yml:6:5: line 6, the text of the | block of the "-" on line 5, is indented by 4 spaces, no deeper than the "-", so YAML reads the block as empty and line 6 as one more item of the list | indent the block's text deeper than the "-": by 6 spaces, so that line 6 reads\n          - Where is my order?\n  and each line of the text after it too\n  or, if line 6 is an item of its own, remove line 5`,
      `${P}/a.yml:8:12: invalid YAML: the double quote opened here is never closed | close the value with " on this line (a " inside it is written \\")`,
      `${P}/b.yml:2:3: invalid YAML: line 2 has no ":" after its key "opening", so YAML cannot read "hi" as its value | write ": " after "opening", so that line 2 reads\n      opening: hi`,
      `${P}/b.yml:10:5: line 10, the text of the | block of the "-" on line 9, is indented by 4 spaces, no deeper than the "-", so YAML reads the block as empty and line 10 as one more item of the list | indent the block's text deeper than the "-": by 6 spaces, so that line 10 reads\n          - Where is my order?\n  and each line of the text after it too\n  or, if line 10 is an item of its own, remove line 9`,
    ]);
  });

  it('is said alike of config.yml\'s list of text (coverage.conversations), beside a syntax error in another section', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'agent:\n  url: http://127.0.0.1:3000/chat\ncoverage:\n  conversations:\n    - |\n    - refund\njudge:\n  provider: "openai\n',
    });
    expect(errs(r)).toEqual([
      `.agent-replay/config.yml:6:5: line 6, the text of the | block of the "-" on line 5, is indented by 4 spaces, no deeper than the "-", so YAML reads the block as empty and line 6 as one more item of the list | indent the block's text deeper than the "-": by 6 spaces, so that line 6 reads\n          - refund\n  and each line of the text after it too\n  or, if line 6 is an item of its own, remove line 5`,
      `.agent-replay/config.yml:8:13: invalid YAML: the double quote opened here is never closed | close the value with " on this line (a " inside it is written \\")`,
    ]);
    const alone = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'agent:\n  url: http://127.0.0.1:3000/chat\ncoverage:\n  conversations:\n    - |\n    - refund\n' });
    expect(alone.errors.map((e) => `${e.line ?? '-'}:${e.column ?? '-'}: ${e.message}`)).toEqual([
      '6:5: line 6, the text of the | block of the "-" on line 5, is indented by 4 spaces, no deeper than the "-", so YAML reads the block as empty and line 6 as one more item of the list',
    ]);
  });

  it('leaves a key the item takes, or a misspelt one, after an empty block to the empty value\'s error and its own', async () => {
    const r = await load({ [`${F}/a.yml`]: 'label: a\nmessage: |\npersona: x\n', [`${F}/b.yml`]: 'label: b\nmessage: |\nasert: { contains: x }\n' });
    expect(errs(r).map((e) => e.split(' | ')[0])).toEqual([
      `${F}/a.yml:2:10: fixture "a": message is empty`,
      `${F}/b.yml:2:10: fixture "b": message is empty`,
      `${F}/b.yml:3:1: fixture "b": unknown key "asert"; allowed keys: label, message, persona, assert, repeat`,
    ]);
  });
});

describe('a "-" alone, the item\'s keys at its column under a list at its key\'s column (fixtures:, -, label: a): valid YAML, an empty item and keys beside the list', () => {
  it('is one error at the first key, its fix indenting the item\'s lines under the "-", not "must be a mapping" and an unknown key for each line', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n-\nlabel: a\nmessage: hi\nassert:\n  contains: x\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: b\n    message: hi\n  - # the next\nlabel: c\n',
      [`${P}/p.yml`]: 'personas:\n-\nlabel: p\nopening: hi\nexpect: { terminal: finish }\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:1: the "-" on line 2 has nothing after it, and line 3 under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line 3 as a key beside "fixtures" on line 1, not as part of the item | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: a\n  and move lines 4 to 6 right by 2 spaces too`,
      `${F}/b.yml:5:1: the "-" on line 4 has nothing after it, and line 5 under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line 5 as a key beside "fixtures" on line 1, not as part of the item | indent the item's lines deeper than the "-": by 4 spaces, so that line 5 reads\n        label: c\n  or write it after the "-", so that line 4 reads\n      - label: c`,
      `${P}/p.yml:3:1: the "-" on line 2 has nothing after it, and line 3 under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line 3 as a key beside "personas" on line 1, not as part of the item | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: p\n  and move lines 4 to 5 right by 2 spaces too`,
    ]);
    // The fix as written loads.
    const fixed = await load({ [`${F}/a.yml`]: 'fixtures:\n-\n  label: a\n  message: hi\n  assert:\n    contains: x\n' });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['a']);
  });

  it('is one error in the same words with "invalid YAML:" when a next "-" makes the file invalid, naming each such item\'s lines, and the fix as written loads', async () => {
    const two = 'fixtures:\n-\nlabel: a\nmessage: hi\n-\nlabel: b\nmessage: yo\n';
    const r = await load({
      [`${F}/a.yml`]: two,
      [`${F}/b.yml`]: 'fixtures:\n- label: e\n  message: hi\n-\nlabel: f\nmessage: hi\nassert:\n  contains: x\n\n-\nlabel: g\nmessage: x\n- label: h\n  message: y\n',
      [`${F}/c.yml`]: 'fixtures:\n-\nlabel: a\nmessage: hi\n- label: b\n  message: yo\n',
    });
    const item = (dash: number, first: number): string =>
      `the "-" on line ${String(dash)} has nothing after it, and line ${String(first)} under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line ${String(first)} as a key beside "fixtures" on line 1, not as part of the item`;
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:1: invalid YAML: ${item(2, 3)}; line 6 under the "-" on line 5 is written the same way | indent each item's lines deeper than its "-": by 2 spaces, so that line 3 reads\n      label: a\n  and move line 4 right by 2 spaces too\n  and line 6 reads\n      label: b\n  and move line 7 right by 2 spaces too`,
      `${F}/b.yml:5:1: invalid YAML: ${item(4, 5)}; line 11 under the "-" on line 10 is written the same way | indent each item's lines deeper than its "-": by 2 spaces, so that line 5 reads\n      label: f\n  and move lines 6 to 8 right by 2 spaces too\n  and line 11 reads\n      label: g\n  and move line 12 right by 2 spaces too`,
      `${F}/c.yml:3:1: invalid YAML: ${item(2, 3)} | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: a\n  and move line 4 right by 2 spaces too`,
    ]);
    // The fix as written loads: every item's lines indented by 2 spaces.
    const fixed = await load({
      [`${F}/a.yml`]: 'fixtures:\n-\n  label: a\n  message: hi\n-\n  label: b\n  message: yo\n',
      [`${F}/b.yml`]: 'fixtures:\n- label: e\n  message: hi\n-\n  label: f\n  message: hi\n  assert:\n    contains: x\n\n-\n  label: g\n  message: x\n- label: h\n  message: y\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'e', 'f', 'g', 'h']);
  });

  it('is said in the same run as a syntax error in the file, below it or above it, its lines taken up to the error; the fix as written leaves the syntax error alone', async () => {
    // The brief's file: the "-" on line 2, its keys at its column, and a syntax error on line 40.
    const comments = '# more fixtures below\n'.repeat(33);
    const below = `fixtures:\n-\nlabel: a\nmessage: hi\nassert:\n  contains: x\n${comments}other: "\\q"\n`;
    const r = await load({
      [`${F}/a.yml`]: below,
      // Above it, in another item; the syntax error on a line of the item's: its lines end above it.
      [`${F}/b.yml`]: 'fixtures:\n- label: b\n  message: "\\q"\n-\nlabel: c\nmessage: hi\n',
      [`${F}/c.yml`]: 'fixtures:\n-\nlabel: d\nmessage: "hi\n',
      [`${P}/p.yml`]: 'personas:\n-\nlabel: p\nopening: hi\nexpect: { terminal: finish }\nmaxTurns: "\\q"\n',
    });
    const empty = (dash: number, key: string): string =>
      `the "-" on line ${String(dash)} has nothing after it, and line ${String(dash + 1)} under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line ${String(dash + 1)} as a key beside "${key}" on line 1, not as part of the item`;
    expect(said(r.errors).map((e) => e.replace(/ \| put the value in single quotes[^]*/, ''))).toEqual([
      `${F}/a.yml:3:1: ${empty(2, 'fixtures')} | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: a\n  and move lines 4 to 6 right by 2 spaces too`,
      `${F}/a.yml:40:9: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
      `${F}/b.yml:3:13: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
      `${F}/b.yml:5:1: ${empty(4, 'fixtures')} | indent the item's lines deeper than the "-": by 2 spaces, so that line 5 reads\n      label: c\n  and move line 6 right by 2 spaces too`,
      // One line above the error, which may be the item's too: not told to write it after the "-".
      `${F}/c.yml:3:1: ${empty(2, 'fixtures')} | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: d`,
      `${F}/c.yml:4:10: invalid YAML: the double quote opened here is never closed | close the value with " on this line (a " inside it is written \\")`,
      `${P}/p.yml:3:1: ${empty(2, 'personas')} | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: p\n  and move lines 4 to 5 right by 2 spaces too`,
      `${P}/p.yml:6:12: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
    ]);
    // The fix as written: the syntax error alone is left.
    const fixed = await load({ [`${F}/a.yml`]: below.replace('-\nlabel: a\nmessage: hi\nassert:\n  contains: x\n', '-\n  label: a\n  message: hi\n  assert:\n    contains: x\n') });
    expect(said(fixed.errors).map((e) => e.split(' | ')[0])).toEqual([`${F}/a.yml:40:9: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`]);
  });

  it('is said with a bad escape in an item after it that the parser never read (its key refused), each at its line with its fix, in one load', async () => {
    // Line 5's "- label: b" after line 4's key at its column: the parser refuses it and line 7's, and leaves their values out of the document, line 8's "\\q" with them.
    const r = await load({ [`${F}/a.yml`]: 'fixtures:\n-\nlabel: a\nmessage: hi\n- label: b\n  message: hi\n- label: c\n  message: "\\q"\n' });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:3:1: invalid YAML: the "-" on line 2 has nothing after it, and line 3 under it is indented by no spaces, no deeper than the "-", so YAML reads the item as empty and line 3 as a key beside "fixtures" on line 1, not as part of the item | indent the item's lines deeper than the "-": by 2 spaces, so that line 3 reads\n      label: a\n  and move line 4 right by 2 spaces too`,
      `${F}/a.yml:8:13: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\") | put the value in single quotes, where a backslash is kept as written, so that line 8 reads\n      message: '\\q'\n  or keep the double quotes and double the backslash (\\\\q)`,
    ]);
    // A bad escape the parser did read is said once, not again from its tokens; one in a comment or a block's text is no escape.
    const once = await load({ [`${F}/a.yml`]: 'fixtures:\n- label: a\n  message: "\\q"\n  assert: { regex: "\\d" }\n- label: b\n  message: |\n    "\\w"\n  # "\\x"\nother: [\n' });
    expect(said(once.errors).filter((e) => e.includes('escape'))).toEqual([
      `${F}/a.yml:3:13: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\") | put the value in single quotes, where a backslash is kept as written, so that line 3 reads\n      message: '\\q'\n  or keep the double quotes and double the backslash (\\\\q)`,
      `${F}/a.yml:4:21: invalid YAML: \\d inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\") | put the value in single quotes, where a backslash is kept as written, so that line 4 reads\n      assert: { regex: '\\d' }\n  or keep the double quotes and double the backslash (\\\\d)`,
    ]);
  });

  it('leaves an item whose "-" a syntax error above leaves unsure, and one whose first line is the error, to the syntax error alone', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'fixtures:\n- label: a\n  message: "\\q"\n-\nlabel: b\nmessage: hi\nfixtures: 3\n',
      [`${F}/b.yml`]: 'fixtures:\n-\nlabel b\nmessage: hi\n',
    });
    expect(said(r.errors).map((e) => e.split(' | ')[0])).toEqual([
      `${F}/a.yml:3:13: invalid YAML: \\q inside double quotes is not a YAML escape (in "..." a backslash starts one, such as \\n or \\")`,
      `${F}/a.yml:7:1: invalid YAML: the key "fixtures" appears twice in one mapping (first on line 1)`,
      `${F}/b.yml:3:1: invalid YAML: line 3 has no ":" after its key "label", so YAML cannot read "b" as its value`,
    ]);
  });

  it('leaves an empty item followed by a key the file takes to the empty item\'s own error', async () => {
    const r = await load({ [`${F}/a.yml`]: 'fixtures:\n- label: a\n  message: hi\n-\n' });
    expect(said(r.errors).map((e) => e.split(' | ')[0])).toEqual([`${F}/a.yml:4:1: fixture #2 must be a mapping with label and message, found an empty value (null)`]);
  });
});

describe('a mapping whose every key lacks its ":" (agent:, then url http://..., timeoutMs 5): valid YAML, one text the schema refuses', () => {
  it('says after the schema\'s words that the lines have no ":" after their keys, with each line as it should read, and the fix loads', async () => {
    const r = await load({
      [C]: 'agent:\n  url http://127.0.0.1:3000/chat\n  timeoutMs 5000\n',
      [`${F}/a.yml`]: 'message hi\nlabel a\n',
      [`${F}/b.yml`]: 'fixtures:\n- label b\n  message hi # greeting\n',
    });
    expect(said(r.errors)).toEqual([
      `.agent-replay/config.yml:2:3: agent must be a mapping, found the string "url http://127.0.0.1:3000/chat timeoutMs 5000": lines 2 and 3 have no ":" after their keys ("url", "timeoutMs"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 2 reads\n      url: http://127.0.0.1:3000/chat\n  and line 3 reads\n      timeoutMs: 5000`,
      `${F}/a.yml:1:1: a fixture file must hold a fixture (label, message, ...) or a list under "fixtures:", found the string "message hi label a": lines 1 and 2 have no ":" after their keys ("message", "label"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 1 reads\n    message: hi\n  and line 2 reads\n    label: a`,
      `${F}/b.yml:2:3: fixture #1 must be a mapping with label and message, found the string "label b message hi": lines 2 and 3 have no ":" after their keys ("label", "message"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 2 reads\n    - label: b\n  and line 3 reads\n      message: hi # greeting`,
    ]);
    const fixed = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:3000/chat\n  timeoutMs: 5000\n',
      [`${F}/a.yml`]: 'message: hi\nlabel: a\n',
      [`${F}/b.yml`]: 'fixtures:\n- label: b\n  message: hi # greeting\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['a', 'b']);
  });

  it('says so of a fixture\'s assert written as lines without ":" (assert:, then contains x, maxLatencyMs 5), in a list item too, several checks as a list, and the fix loads', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n  contains x\n  maxLatencyMs 5\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: b\n    message: hi\n    assert:\n      contains 30 days\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert:\n  - contains x\n  - maxLatencyMs 5\n  - judge polite\n    threshold 0.8\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nassert:\n  - judge polite\n    threshold 0.8\n    regex ^Hi\n    flags i\n',
    });
    expect(said(r.errors)).toEqual([
      `${F}/a.yml:4:3: fixture "a": assert must be a mapping or a list, found the string "contains x maxLatencyMs 5": lines 4 and 5 have no ":" after their keys ("contains", "maxLatencyMs"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), and each of the 2 checks as an item of a list (a mapping is one check), so that lines 4 and 5 read\n      - contains: x\n      - maxLatencyMs: 5`,
      `${F}/b.yml:5:7: fixture "b": assert must be a mapping or a list, found the string "contains 30 days": line 5 has no ":" after its key "contains", so YAML cannot read "30 days" as its value | write ": " after "contains", so that line 5 reads\n          contains: 30 days`,
      `${F}/c.yml:4:5: fixture "c": assert[0] must be a mapping, found the string "contains x": line 4 has no ":" after its key "contains", so YAML cannot read "x" as its value | write ": " after "contains", so that line 4 reads\n      - contains: x`,
      `${F}/c.yml:5:5: fixture "c": assert[1] must be a mapping, found the string "maxLatencyMs 5": line 5 has no ":" after its key "maxLatencyMs", so YAML cannot read "5" as its value | write ": " after "maxLatencyMs", so that line 5 reads\n      - maxLatencyMs: 5`,
      `${F}/c.yml:6:5: fixture "c": assert[2] must be a mapping, found the string "judge polite threshold 0.8": lines 6 and 7 have no ":" after their keys ("judge", "threshold"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 6 reads\n      - judge: polite\n  and line 7 reads\n        threshold: 0.8`,
      `${F}/d.yml:4:5: fixture "d": assert[0] must be a mapping, found the string "judge polite threshold 0.8 regex ^Hi flags i": lines 4, 5, 6 and 7 have no ":" after their keys ("judge", "threshold", "regex", "flags"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), and each of the 2 checks as an item of a list (a mapping is one check), so that lines 4, 5, 6 and 7 read\n      - judge: polite\n        threshold: 0.8\n      - regex: ^Hi\n        flags: i`,
    ]);
    const fixed = await load({
      [`${F}/a.yml`]: 'label: a\nmessage: hi\nassert:\n  - contains: x\n  - maxLatencyMs: 5\n',
      [`${F}/b.yml`]: 'fixtures:\n  - label: b\n    message: hi\n    assert:\n      contains: 30 days\n',
      [`${F}/c.yml`]: 'label: c\nmessage: hi\nassert:\n  - contains: x\n  - maxLatencyMs: 5\n  - judge: polite\n    threshold: 0.8\n',
      [`${F}/d.yml`]: 'label: d\nmessage: hi\nassert:\n  - judge: polite\n    threshold: 0.8\n  - regex: ^Hi\n    flags: i\n',
    });
    expect(fixed.errors).toEqual([]);
    expect(fixed.suite?.fixtures.map((f) => f.label)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('says so of each of a config list\'s items written so, next to each other (judge.panel: - provider openai, - provider anthropic)', async () => {
    const r = await load({
      [C]: 'agent:\n  url: http://127.0.0.1:3000/chat\njudge:\n  panel:\n    - provider openai\n    - provider anthropic\n      model claude\n',
      [`${F}/a.yml`]: OK_FIXTURE,
    });
    expect(said(r.errors)).toEqual([
      `.agent-replay/config.yml:5:7: judge.panel[0] must be a mapping, found the string "provider openai": line 5 has no ":" after its key "provider", so YAML cannot read "openai" as its value | write ": " after "provider", so that line 5 reads\n        - provider: openai`,
      `.agent-replay/config.yml:6:7: judge.panel[1] must be a mapping, found the string "provider anthropic model claude": lines 6 and 7 have no ":" after their keys ("provider", "model"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 6 reads\n        - provider: anthropic\n  and line 7 reads\n          model: claude`,
    ]);
  });

  it('says so of a persona script\'s expect written as lines without ":" (expect:, then terminal finish, maxTurnLatencyMs 3000)', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [`${P}/a.yml`]: 'label: a\nopening: hi\nexpect:\n  terminal finish\n  maxTurnLatencyMs 3000\n' });
    expect(said(r.errors)).toEqual([
      `${P}/a.yml:4:3: persona script "a": expect must be a mapping, found the string "terminal finish maxTurnLatencyMs 3000": lines 4 and 5 have no ":" after their keys ("terminal", "maxTurnLatencyMs"), so YAML cannot read them as keys and their values | write ":" after each key (and a space before its value), so that line 4 reads\n      terminal: finish\n  and line 5 reads\n      maxTurnLatencyMs: 3000`,
    ]);
  });

  it('leaves a text over several lines where the schema takes text as it is, "contains x" and all', async () => {
    const r = await load({
      [`${F}/a.yml`]: 'label: a\nmessage:\n  contains x\n  maxLatencyMs 5\nassert:\n  judge:\n    contains refund\n    threshold polite\n',
    });
    expect(r.errors).toEqual([]);
    expect(r.suite?.fixtures.map((f) => [f.message, f.assertion])).toEqual([['contains x maxLatencyMs 5', { kind: 'judge', criterion: 'contains refund threshold polite', threshold: 0.7 }]]);
  });

  it('keeps the schema\'s words for a text whose first word is no key of the mapping, or whose lines are not all keys without ":"', async () => {
    const r = await load({
      [C]: 'agent:\n  the agent at http://127.0.0.1:3000/chat\n',
      [`${F}/a.yml`]: OK_FIXTURE,
      [`${F}/b.yml`]: 'message hi\nand more text\n',
    });
    expect(said(r.errors).map((e) => e.split(' | ')[0])).toEqual([
      '.agent-replay/config.yml:2:3: agent must be a mapping, found the string "the agent at http://127.0.0.1:3000/chat"',
      `${F}/b.yml:1:1: a fixture file must hold a fixture (label, message, ...) or a list under "fixtures:", found the string "message hi and more text"`,
    ]);
  });
});
