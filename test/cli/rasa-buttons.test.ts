// A Rasa bot's buttons are part of its reply (docs/presets.md, rasa-rest): a pull request that
// changes the buttons a user is offered shows the fixture as changed, end to end through
// `agent-replay run` against a loopback server answering as Rasa's REST channel does.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentConfig, baseline, byLabel, cli, makeProject, readResults, serve, useCleanup } from './helpers.js';

useCleanup();

/** Rasa's REST channel: a list of messages for the sender; the buttons as the bot's domain gives them. */
function rasaBot(handoff: boolean) {
  return serve((req) => {
    const { sender, message } = req.json as { sender: string; message: string };
    if (message === 'cancel my order') {
      return {
        json: [
          {
            recipient_id: sender,
            text: 'Shall I cancel order A1?',
            buttons: [{ title: 'Yes', payload: '/affirm' }, handoff ? { title: 'Talk to a person', payload: '/handoff' } : { title: 'No', payload: '/deny' }],
          },
        ],
      };
    }
    return { json: [{ recipient_id: sender, text: 'We open at 9.' }, { recipient_id: sender, buttons: [{ title: 'Directions', payload: '/directions' }] }] };
  });
}

describe('rasa-rest buttons', () => {
  it('a changed button is a changed reply; the same buttons are the same reply', async () => {
    const agent = await rasaBot(true);
    const cwd = await makeProject({
      config: agentConfig(`${agent.url}/webhooks/rest/webhook`, '  preset: rasa-rest\n'),
      fixtures: { 'bot.yml': 'fixtures:\n  - { label: cancel, message: cancel my order }\n  - { label: hours, message: when do you open }\n' },
      baselines: [
        // The replies the bot gave when the baselines were accepted: the same text, then No instead of Talk to a person.
        baseline('cancel', 'Shall I cancel order A1?\n1: Yes (/affirm)\n2: No (/deny)', null, 'pass'),
        baseline('hours', 'We open at 9.\n\n1: Directions (/directions)', null, 'pass'),
      ],
    });
    const r = await cli(['run'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('cancel')).toMatchObject({ reply: 'Shall I cancel order A1?\n1: Yes (/affirm)\n2: Talk to a person (/handoff)', drift: { reply: 'different' } });
    expect(f.get('hours')).toMatchObject({ reply: 'We open at 9.\n\n1: Directions (/directions)', drift: { reply: 'same' } });
    expect(r.stdout).toContain('2: Talk to a person (/handoff)');
  });

  it('the baseline of a bot whose buttons did not change is unchanged, run after run', async () => {
    const agent = await rasaBot(false);
    const cwd = await makeProject({
      config: agentConfig(`${agent.url}/webhooks/rest/webhook`, '  preset: rasa-rest\n'),
      fixtures: { 'bot.yml': 'fixtures:\n  - { label: cancel, message: cancel my order }\n' },
      baselines: [baseline('cancel', 'Shall I cancel order A1?\n1: Yes (/affirm)\n2: No (/deny)', null, 'pass')],
    });
    const r = await cli(['run'], cwd);
    expect(r.code, r.stderr).toBe(0);
    const f = byLabel(await readResults(join(cwd, '.agent-replay', 'results', 'results.json')));
    expect(f.get('cancel')).toMatchObject({ drift: { reply: 'same' } });
  });
});
