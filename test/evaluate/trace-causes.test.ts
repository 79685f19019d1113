// The run's causes for turns whose spans a trace store did not give (docs/traces.md, "Query: a trace
// store", "When spans do not arrive"): one store failure is one cause, whatever trace id each turn
// asked for, and a store that had nothing is not answered with the receiver's fix.
import { describe, expect, it } from 'vitest';
import { causeOf, groupCauses, type CauseItem } from '../../src/evaluate/causes.js';
import { lateCause, noSpansCause, startSpanSource } from '../../src/traces/index.js';
import { renderComment, renderJUnit, renderTerminal } from '../../src/report/index.js';
import { ctx, fixture, resetLines, run } from '../report/fixtures.js';
import { incompleteCause, notUnderAttemptCause } from '../../src/traces/observer.js';
import { docsUrl } from '../../src/version.js';

const ID1 = '72e05b7f160dab098f269aaf477e8d24';
const ID2 = '6bbe1428d9e7dd39b9536310525920e4';
const item = (label: string, detail: string): CauseItem => ({ label, errored: false, verdict: 'not_evaluated', detail, checks: [{ status: 'not_evaluated', detail }] });

describe('causes of a trace store', () => {
  it('one store that cannot be reached is one cause for every turn, its trace ids aside', () => {
    // As the query client words it (src/traces/query.ts), for two turns of the run.
    const failed = (id: string): string => `GET http://127.0.0.1:16999/api/v3/traces/${id} failed: connection refused at 127.0.0.1:16999 (ECONNREFUSED); check traces.query.url and that the store is running, until traces.waitMs (1,500 ms) passed`;
    const groups = groupCauses([item('order', failed(ID1)), item('refund', `turn 1: ${failed(ID2)}`), item('refund-2', failed(ID2))], null);
    expect(groups.map((g) => [g.what, g.labels])).toEqual([
      [failed('<trace id>'), ['order', 'refund-2']],
      [`turn 1: ${failed('<trace id>')}`, ['refund']],
    ]);
  });

  it('a store that had nothing: check the export to the store, not the receiver', () => {
    const detail = noSpansCause(ID1, { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 1500 });
    expect(causeOf(item('order', detail), null)).toEqual({
      key: 'traces:no-spans:store',
      what: 'no spans arrived within 1.5 s at tempo (https://tempo.example.com)',
      hint: `check that the agent exports its spans to this store (traces.query.url names it), or raise traces.waitMs for the store to index them (${docsUrl('traces.md', 'When spans do not arrive')})`,
    });
    // The receiver's turn keeps the receiver's fix.
    const received = noSpansCause(ID1, { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 1500 });
    expect(causeOf(item('order', received), null)?.hint).toMatch(/^point the agent's OTEL_EXPORTER_OTLP_ENDPOINT at the receiver/);
  });

  it("the store named once with its address, in the terminal, the comment and JUnit; an older record's words too", async () => {
    const started = await startSpanSource({ receive: null, query: { kind: 'tempo', url: 'https://u:pw@tempo.example.com', apiKey: null }, waitMs: 1500 });
    await started.source.close();
    const detail = noSpansCause(ID1, { endpoint: started.endpoint, receiving: false, waitMs: 1500 });
    // It read "... within 1.5 s at tempo at https://tempo.example.com".
    expect(detail).toBe(`no spans for trace ${ID1} within 1.5 s at tempo (https://tempo.example.com): does the agent export to this store, and is traces.waitMs long enough for it to index them?`);
    const cause = `all 2: no spans arrived within 1.5 s at tempo (https://tempo.example.com): check that the agent exports its spans to this store (traces.query.url names it), or raise traces.waitMs for the store to index them (${docsUrl('traces.md', 'When spans do not arrive')})`;
    // A record written before 2026-12-07 (late evening) ("tempo at https://...") is said in the same words, one group with today's.
    const older = detail.replace('tempo (https://tempo.example.com)', 'tempo at https://tempo.example.com');
    resetLines();
    const record = run([fixture('order', { verdict: 'not_evaluated', detail }), fixture('refund', { verdict: 'not_evaluated', detail: older })]);
    expect(renderTerminal(record, { color: false }).split('\n').find((l) => l.startsWith('  cause: '))).toBe(`  cause: ${cause}`);
    expect(renderComment(record, ctx)).toContain('**Cause**: all 2\\: no spans arrived within 1.5 s at tempo \\(https\\://tempo.example.com\\)\\: check that');
    expect(renderJUnit(record)).toContain(`<property name="cause" value="${cause}"/>`);
  });

  // A count of spans or exports grouped as every count is (src/words.ts): "1,234 spans", never "1234 spans";
  // the causes read it, and a record's older "1234" too.
  it('counts of 1,000 or more grouped, and the causes read them grouped or not', () => {
    const endpoint = 'http://127.0.0.1:4318/v1/traces';
    const opts = { endpoint, receiving: true, waitMs: 5000 };
    const late = lateCause(ID1, '5 s', endpoint, 1234);
    expect(late).toContain(': 1,234 spans came to http://127.0.0.1:4318/v1/traces after it; ');
    expect(noSpansCause(ID1, opts, 2500)).toContain('within 5 s: 2,500 spans of traces agent-replay did not send came to');
    const refused = noSpansCause(ID1, opts, 0, { count: 1200, path: '/v1/traces/v1/traces', contentType: null });
    expect(refused).toContain(', and 1,200 exports came to /v1/traces/v1/traces instead (refused, 404)');
    expect(incompleteCause(ID1, 3000, 'b7ad6b7169203331', opts)).toContain('within 5 s: 3,000 spans came, but not the span b7ad6b7169203331 they hang from');
    expect(notUnderAttemptCause(ID1, 1001, opts)).toContain("none of the trace's 1,001 spans is under");
    for (const detail of [late, late.replace('1,234', '1234')]) expect(causeOf(item('order', detail), null)?.key).toBe('traces:late');
    for (const detail of [refused, refused.replace('1,200', '1200')]) expect(causeOf(item('order', detail), null)?.key).toBe('traces:refused:404\nset OTEL_EXPORTER_OTLP_ENDPOINT to http://127.0.0.1:4318 (the SDK adds /v1/traces), or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT to http://127.0.0.1:4318/v1/traces');
  });
});

// A retried turn whose spans hang from none of its attempts' traceparents (docs/traces.md, "Retried
// requests"): one cause for every trace id and span count, with a fix, not one group a turn whose
// words are the turn's own question.
describe('causes of a retried turn whose spans are under no attempt', () => {
  const receiving = { endpoint: 'http://127.0.0.1:4318/v1/traces', receiving: true, waitMs: 5000 };
  const store = { endpoint: 'tempo (https://tempo.example.com)', receiving: false, waitMs: 1500 };

  it('one cause for every trace id and count, with the receiver in its fix', () => {
    const groups = groupCauses(
      [item('order', notUnderAttemptCause(ID1, 4, receiving)), item('refund', `turn 2: ${notUnderAttemptCause(ID2, 7, receiving)}`)],
      null,
    );
    expect(groups.map((g) => [g.what, g.hint, g.labels])).toEqual([
      [
        "no spans of the answered attempt within 5 s: the turn was retried, and none of its trace's spans is under the traceparent of the attempt that answered",
        `start the agent's spans under each request's incoming traceparent, a retried request's too (${docsUrl('traces.md', 'Retried requests')}), and export them to http://127.0.0.1:4318/v1/traces`,
        ['order', 'refund'],
      ],
    ]);
  });

  it("a store's turns: the store named once, its fix the wait; apart from a receiver's", () => {
    const groups = groupCauses([item('order', notUnderAttemptCause(ID1, 4, store)), item('refund', notUnderAttemptCause(ID2, 2, receiving)), item('faq', notUnderAttemptCause(ID2, 9, store))], null);
    expect(groups.map((g) => [g.what, g.hint, g.labels])).toEqual([
      [
        "no spans of the answered attempt within 1.5 s at tempo (https://tempo.example.com): the turn was retried, and none of its trace's spans is under the traceparent of the attempt that answered",
        `start the agent's spans under each request's incoming traceparent, a retried request's too (${docsUrl('traces.md', 'Retried requests')}), or raise traces.waitMs for the store to index them`,
        ['order', 'faq'],
      ],
      [
        "no spans of the answered attempt within 5 s: the turn was retried, and none of its trace's spans is under the traceparent of the attempt that answered",
        `start the agent's spans under each request's incoming traceparent, a retried request's too (${docsUrl('traces.md', 'Retried requests')}), and export them to http://127.0.0.1:4318/v1/traces`,
        ['refund'],
      ],
    ]);
  });
});
