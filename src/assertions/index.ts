export { evaluateAssertion, evaluateChecks, PROBE_DETAIL, type AssertionDeps, type CheckInput } from './evaluate.js';
export { judgeAssertionOf, listDetail, listVerdict, type JudgeAssertion } from './list.js';
export { evaluateMaxLatency } from './latency.js';
export { evaluateContains } from './contains.js';
export { evaluateRegex } from './regex.js';
export { evaluateJudge, judgeGaveNoVerdict, judgeOutcome, NO_JUDGE_REASON } from './judge.js';
export { createRegexPool, MAX_MATCH_CHARS, type RegexPoolOptions } from './regex-pool.js';
export { quote, showPattern, formatPair } from './format.js';
