// AI SDK 7's own fake model (MockLanguageModelV4 from `ai/test`, no network) playing the scripted
// refund conversation from the prompt it receives.

import { MockLanguageModelV4 } from 'ai/test';
import { scriptedAnswer, v2PromptOf, v2StreamOf } from '../scripted-model.js';

/** V4 usage: token counts with their breakdowns; finish reasons unified and raw. */
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

export const model = new MockLanguageModelV4({
  doStream: async ({ prompt }) => {
    const parts = v2StreamOf(scriptedAnswer(v2PromptOf(prompt as { role: string; content: unknown }[]))).map((p) =>
      p.type === 'finish' ? { type: 'finish', finishReason: { unified: p.finishReason, raw: String(p.finishReason) }, usage } : p,
    );
    return { stream: new ReadableStream({ start: (c) => (parts.forEach((p) => c.enqueue(p as never)), c.close()) }) };
  },
});
