// The one OTLP-to-Span conversion (docs/traces.md, "How spans are read"), its edge values, and the
// vendored descriptor kept equal to the .proto files it is made from.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { attributesOf, idOf, msOf, spansOfOtlp } from '../../src/traces/otlp.js';
import { startSpanSource } from '../../src/traces/index.js';

describe('OTLP conversion', () => {
  it('reads ids as bytes, hex (either case) or base64 (padded or not, URL-safe too), told apart by length', () => {
    const hex = '4bf92f3577b34da6a3ce929d0e0e4736';
    const bytes = Buffer.from(hex, 'hex');
    expect(idOf(new Uint8Array(bytes), 16)).toBe(hex);
    expect(idOf(hex.toUpperCase(), 16)).toBe(hex);
    expect(idOf(bytes.toString('base64'), 16)).toBe(hex);
    expect(idOf(bytes.toString('base64url'), 16)).toBe(hex);
    expect(idOf(Buffer.from('00f067aa0ba902b7', 'hex').toString('base64'), 8)).toBe('00f067aa0ba902b7');
    expect(idOf('00f067aa0ba902b7', 8)).toBe('00f067aa0ba902b7');
    for (const bad of ['', 'xyz', hex.slice(2), 42, null, new Uint8Array(4)]) expect(idOf(bad, 16)).toBeNull();
  });

  it('reads nanosecond times as fractional milliseconds without losing the sub-millisecond part', () => {
    expect(msOf('1700000000123456789')! - 1_700_000_000_123).toBeCloseTo(0.4568, 3);
    expect(msOf(1.7e18)).toBe(1_700_000_000_000);
    for (const none of ['0', '', 'abc', -5, undefined]) expect(msOf(none)).toBeNull();
    // No clock wrote a time after 2200: an overflowing or made-up value is no time at all.
    for (const none of ['9'.repeat(40), 1e30, '7258118400001000000']) expect(msOf(none)).toBeNull();
    expect(msOf('7258118400000000000')).toBe(7_258_118_400_000);
  });

  it('flattens attribute values: scalars, arrays of scalars, nested maps and lists as JSON text, bytes as base64', () => {
    expect(
      attributesOf([
        { key: 's', value: { stringValue: 'x' } },
        { key: 'i', value: { intValue: '9007199254740993' } },
        { key: 'd', value: { doubleValue: 0.5 } },
        { key: 'b', value: { boolValue: false } },
        { key: 'a', value: { arrayValue: { values: [{ stringValue: 'p' }, { intValue: 2 }] } } },
        { key: 'm', value: { kvlistValue: { values: [{ key: 'k', value: { arrayValue: { values: [{ kvlistValue: { values: [{ key: 'z', value: { boolValue: true } }] } }] } } }] } } },
        { key: 'y', value: { bytesValue: new Uint8Array([1, 2, 3]) } },
        { key: 'e', value: {} },
      ]),
    ).toEqual({ s: 'x', i: 9007199254740992, d: 0.5, b: false, a: ['p', 2], m: '{"k":[{"z":true}]}', y: 'AQID', e: null });
  });

  it('keeps attributes named like an object\u2019s own machinery (__proto__, constructor), in nested maps too', () => {
    const read = attributesOf([
      { key: '__proto__', value: { arrayValue: { values: [{ stringValue: 'p' }] } } },
      { key: 'constructor', value: { stringValue: 'c' } },
      { key: 'm', value: { kvlistValue: { values: [{ key: '__proto__', value: { kvlistValue: { values: [{ key: 'orderId', value: { stringValue: '1' } }] } } }] } } },
    ]);
    expect(Object.entries(read)).toEqual([['__proto__', ['p']], ['constructor', 'c'], ['m', '{"__proto__":{"orderId":"1"}}']]);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });

  it('an attribute nesting 100,000 levels reads as a text saying so, its span kept (a tool call it reports is still a call); 256 levels are read', () => {
    const nested = (levels: number): unknown => JSON.parse(`${'{"arrayValue":{"values":['.repeat(levels)}{"stringValue":"x"}${']}}'.repeat(levels)}`);
    const span = (spanId: string, value: unknown) => ({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId, name: 'execute_tool lookup', startTimeUnixNano: '1000000', endTimeUnixNano: '2000000', attributes: [{ key: 'gen_ai.tool.name', value: { stringValue: 'lookup' } }, { key: 'gen_ai.tool.call.arguments', value }] });
    const read = spansOfOtlp({ resourceSpans: [{ resource: { attributes: [{ key: 'r', value: nested(100_000) }] }, scopeSpans: [{ spans: [span('00f067aa0ba902b7', nested(100_000)), span('00f067aa0ba902b8', nested(256))] }] }] });
    expect(read.rejected).toBe(0);
    expect(read.spans.map((s) => s.attributes['gen_ai.tool.call.arguments'])).toEqual(['(not read: nests deeper than 256 levels of lists and maps)', `${'['.repeat(256)}"x"${']'.repeat(256)}`]);
    expect(read.spans[0]?.attributes['gen_ai.tool.name']).toBe('lookup');
  });

  it('an ERROR span without a message takes its exception event\u2019s; status names and numbers both count; a span without an end ends at its start', () => {
    const read = spansOfOtlp({
      resourceSpans: [
        {
          scopeSpans: [
            {
              spans: [
                { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', name: 't', startTimeUnixNano: '2000000', status: { code: 'STATUS_CODE_ERROR' }, events: [{ name: 'exception', attributes: [{ key: 'exception.message', value: { stringValue: 'boom' } }] }] },
                { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b8', parentSpanId: '', name: 'ok', startTimeUnixNano: '1000000', endTimeUnixNano: '3000000', status: { code: 1 } },
                { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '0000000000000000', name: 'bad' },
              ],
            },
          ],
        },
      ],
    });
    expect(read.rejected).toBe(1);
    expect(read.rejectedWhy).toBe('a span has no valid span id (8 bytes)');
    expect(read.spans.map((s) => [s.name, s.status, s.statusMessage, s.parentSpanId, s.startMs, s.endMs, s.service])).toEqual([
      ['t', 'error', 'boom', null, 2, 2, null],
      ['ok', 'ok', null, null, 1, 3, null],
    ]);
    expect(() => spansOfOtlp([])).toThrow('not OTLP trace data');
    expect(spansOfOtlp({}).spans).toEqual([]);
  });

  it('the protobuf descriptor is the one generated from the vendored .proto files', () => {
    expect(() => execFileSync(process.execPath, ['scripts/otlp-descriptor.mjs', '--check'], { stdio: 'pipe' })).not.toThrow();
  });
});

describe('startSpanSource', () => {
  it('starts the receiver or a query client from traces:, saying where spans are read', async () => {
    const received = await startSpanSource({ receive: { port: 0 }, query: null, waitMs: 10 });
    expect(received.where).toMatch(/^traces: receiving OTLP\/HTTP on http:\/\/127\.0\.0\.1:\d+ \(set OTEL_EXPORTER_OTLP_ENDPOINT to it\)$/);
    await received.source.close();
    const queried = await startSpanSource({ receive: null, query: { kind: 'tempo', url: 'https://u:secret-pw@tempo.example.com', apiKey: 'k-123456' }, waitMs: 10 });
    expect(queried.where).toBe('traces: reading spans from tempo at https://tempo.example.com');
    await queried.source.close();
    const at = await startSpanSource({ receive: null, query: { kind: 'tempo', url: 'https://u:p@ss-secret-pw@tempo.example.com', apiKey: null }, waitMs: 10 });
    expect([at.where, at.endpoint]).toEqual(['traces: reading spans from tempo at https://tempo.example.com', 'tempo (https://tempo.example.com)']);
    await at.source.close();
  });
});
