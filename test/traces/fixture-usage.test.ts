// A fixture's tokens with spans (docs/traces.md, "Usage"; docs/latency.md, "Usage"): its message
// turn takes the tokens of its model spans when its response reports none, also when the welcome
// turn's response reported some. A real loopback agent exports OTLP/JSON spans to the real
// receiver under the traceparent each message turn carries; the welcome turn exports none.

import { afterEach, describe, expect, it } from 'vitest';
import { createHttpAgentClient, observeTurns } from '../../src/agent/index.js';
import { parseTraceparent } from '../../src/agent/trace-context.js';
import { defaultConfig } from '../../src/config.js';
import { traceObserver } from '../../src/traces/index.js';
import { startReceiver } from '../../src/traces/receiver.js';
import type { Clock } from '../../src/types.js';
import { startAgentServer, type AgentHandler } from '../support/agent-server.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const T0 = 1_700_000_000_000;
const clock: Clock = { now: () => T0, sleep: async () => undefined };
const nanos = (ms: number): string => (BigInt(ms) * 1_000_000n).toString();

/** The message turn's server span under the sent span, and a model call under it that reports 40 tokens in and 8 out. */
function spansOf(traceId: string, sentSpanId: string): unknown {
  const span = (id: string, parent: string, name: string, attributes: unknown[]): unknown => ({ traceId, spanId: id, parentSpanId: parent, name, startTimeUnixNano: nanos(T0 + 1), endTimeUnixNano: nanos(T0 + 50), attributes, status: {} });
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'shop' } }] },
        scopeSpans: [
          {
            scope: { name: 'test' },
            spans: [
              span('aaaaaaaaaaaaaaaa', sentSpanId, 'POST /chat', []),
              span('bbbbbbbbbbbbbbbb', 'aaaaaaaaaaaaaaaa', 'chat m', [
                { key: 'gen_ai.operation.name', value: { stringValue: 'chat' } },
                { key: 'gen_ai.usage.input_tokens', value: { intValue: 40 } },
                { key: 'gen_ai.usage.output_tokens', value: { intValue: 8 } },
              ]),
            ],
          },
        ],
      },
    ],
  };
}

describe("a fixture's tokens with spans", () => {
  it("adds the message turn's span tokens to the welcome turn's reported ones", async () => {
    const receiver = await startReceiver({ port: 0, waitMs: 2000 });
    cleanups.push(() => receiver.close());
    const handler: AgentHandler = async (req) => {
      const body = req.json as { start?: boolean };
      // The welcome turn reports its tokens in its response; the message turn only in its spans.
      if (body.start === true) return { json: { reply: 'Welcome!', usage: { inputTokens: 10, outputTokens: 0 } } };
      const sent = parseTraceparent(String(req.headers.traceparent));
      if (sent === null) throw new Error('no traceparent');
      const res = await fetch(`${receiver.endpoint}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(spansOf(sent.traceId, sent.spanId)) });
      expect(res.status).toBe(200);
      return { json: { reply: 'Order 1234 is on its way.' } };
    };
    const server = await startAgentServer(handler);
    cleanups.push(() => server.close());
    const observer = traceObserver(receiver, { endpoint: `${receiver.endpoint}/v1/traces`, receiving: true, waitMs: 2000, now: clock.now });
    const raw = createHttpAgentClient({ ...defaultConfig().agent, url: server.url, retries: 0 }, { clock, onTraceSent: (trace) => observer.beforeSend(trace) });
    cleanups.push(() => raw.close());
    const client = observeTurns(raw, observer);

    const outcome = await client.converse({ session: 'F', message: 'Where is order 1234?', persona: null });
    expect(outcome).toMatchObject({ kind: 'replied', spans: { count: 2 } });
    // 10 from the welcome turn's response, 40 + 8 from the message turn's model span.
    expect(outcome.kind === 'replied' ? outcome.usage : null).toEqual({ inputTokens: 50, outputTokens: 8 });

    // Without a welcome turn, the message turn's span tokens alone.
    const plain = observeTurns(createHttpAgentClient({ ...defaultConfig().agent, url: server.url, start: null, retries: 0 }, { clock, onTraceSent: (trace) => observer.beforeSend(trace) }), observer);
    cleanups.push(() => plain.close());
    const alone = await plain.converse({ session: 'G', message: 'Where is order 1234?', persona: null });
    expect(alone.kind === 'replied' ? alone.usage : null).toEqual({ inputTokens: 40, outputTokens: 8 });
  });
});
