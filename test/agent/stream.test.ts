import { describe, expect, it } from 'vitest';
import { decodeEventStream, parseEventStream } from '../../src/agent/stream.js';

describe('parseEventStream', () => {
  it('splits on CRLF, LF and CR; joins data lines with LF; drops comments, one leading space and data-less events', () => {
    const text = ': hello\r\nevent: a\r\ndata: one\r\ndata:two\r\n\r\nevent: empty\n\nid: 3\rdata:  three\r\rdata: last';
    expect(parseEventStream(text)).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: null, data: ' three' },
      { event: null, data: 'last' },
    ]);
  });
});

describe('decodeEventStream', () => {
  it('plain data is appended as it comes, JSON-looking or not; plain text has no end event to miss', () => {
    expect(decodeEventStream('data: Hello,\n\ndata:  world\n\ndata: {"a":1}\n\n')).toEqual({ ok: true, value: { reply: 'Hello, world{"a":1}', toolCalls: null } });
  });

  it('events of a known format that carry no text are ignored, not appended', () => {
    const text = ['{"type":"start"}', '{"type":"text-delta","id":"t","delta":"Hi"}', '{"type":"message-metadata","messageMetadata":{}}', '{"type":"finish"}']
      .map((d) => `data: ${d}\n\n`)
      .join('');
    expect(decodeEventStream(text)).toEqual({ ok: true, value: { reply: 'Hi', toolCalls: [] } });
  });

  it('an abort part errors the stream', () => {
    expect(decodeEventStream('data: {"type":"start"}\n\ndata: {"type":"abort"}\n\n')).toEqual({ ok: false, error: 'the stream was aborted by the agent (an abort part)' });
  });

  it('response.failed and response.incomplete are errors with their reason', () => {
    const failed = `data: ${JSON.stringify({ type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } })}\n\n`;
    expect(decodeEventStream(failed)).toEqual({ ok: false, error: 'the stream reported response.failed: server_error: boom' });
    const incomplete = `data: ${JSON.stringify({ type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } })}\n\n`;
    expect(decodeEventStream(incomplete)).toEqual({ ok: false, error: 'the stream reported response.incomplete (max_output_tokens)' });
  });
});
