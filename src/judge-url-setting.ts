// Where a model client's address is written, as a fix names it (docs/troubleshooting.md, "Not
// evaluated"), and how an answer that is an error is said: the judge's client (src/judge/http.ts,
// src/judge/structured.ts) and the report's causes (src/evaluate/causes.ts) say it in the same words. Pure.

/**
 * The judge's address in a fix, named where the Action takes it: its `judge-base-url` input, else
 * config.yml's judge.baseUrl (action.yml), as the agent's is named "agent-url (agent.url)"; the
 * terminal names the CLI's flag instead (src/report/terminal.ts, cliWords).
 */
export const JUDGE_URL_SETTING = 'judge-base-url (judge.baseUrl)';

/**
 * The simulator's address in a fix: its own key, else the judge's, named where the Action takes it
 * (JUDGE_URL_SETTING: the simulator has no input of its own, and takes the judge's `judge-base-url`
 * when its key is not written); the terminal's cliWords names the CLI's flag in it.
 */
export const SIMULATOR_URL_SETTING = `simulator.baseUrl (else ${JUDGE_URL_SETTING})`;

/** The meaning judge's address in a fix: its own key, else the judge's (docs/meaning.md, "Configuration"), as the simulator's is. */
export const MEANING_URL_SETTING = `meaning.baseUrl (else ${JUDGE_URL_SETTING})`;

/** The setting that holds a peer's base URL, for a fix ("the simulator", "the meaning judge": its own, else the judge's). */
export function baseUrlSetting(peer: string): string {
  return peer === 'the simulator' ? SIMULATOR_URL_SETTING : peer === 'the meaning judge' ? MEANING_URL_SETTING : JUDGE_URL_SETTING;
}

/**
 * Said of a judge's, meaning judge's or simulator's answer whose HTTP 200 carries an error in place
 * of one (a gateway's: OpenRouter's choice `error`, a proxy's `{"error": ...}`): written by
 * src/judge/structured.ts, read by the causes (src/evaluate/causes.ts, src/report/cause-details.ts).
 */
export const ERROR_IN_200 = 'an error in the HTTP 200 answer';

/** Said of an answer streamed as server-sent events in place of one JSON body (src/judge/http.ts), read by the causes. */
export const STREAMED = 'response is a stream of server-sent events (text/event-stream), not one JSON answer';
