export { createJudge, isRefusal, VERDICT_SCHEMA, VERDICT_TOOL, type JudgeDeps, type JudgeStructuredOutput } from './client.js';
export { parseJudgeOutput, parseJudgeObject, oneLine, snippet } from './parse.js';
export { postJson, type PostOptions, type PostResult } from './http.js';
export { backoffDelay, parseRetryAfter, systemClock, withRetries, MAX_RETRY_AFTER_MS } from '../http/retry.js';
export { dataTag, JUDGE_SYSTEM_PROMPT, judgeUserMessage, TRANSCRIPT_SYSTEM_PROMPT, transcriptText, transcriptUserMessage } from './prompt.js';
export { callsPerCriterion, configuredJudgeName, createConfiguredJudge, createPanelJudge, judgeEndpointOf, judgeModelOf } from './panel.js';
