// One loopback OpenAI-compatible judge server for panels of judges (docs/judges.md, "Panels"):
// it answers per model, so one server plays every member of a panel.

import { startServer, type Received, type TestServer } from './server.js';

/**
 * Member `mK` (or `mK-anything`) reads the criterion "split XYZ..." and answers by the K-th letter: P 0.9, F 0.2, U no
 * usable score (prose), L an answer cut at the token limit (finish_reason "length"), H an HTTP 503. A criterion "scores a,b,c" gives member K the K-th score.
 * Model `plain` refuses the schema mechanism (HTTP 400 naming response_format), then answers 0.8.
 */
export function panelAnswer(req: Received): { status: number; body: unknown } {
  const body = req.body as { model: string; response_format?: unknown; messages: { role: string; content: string }[] };
  const user = body.messages.find((m) => m.role === 'user')?.content ?? '';
  const criterion = /Criterion:\n(.*)\n/.exec(user)?.[1] ?? '';
  const content = (text: string) => ({ status: 200, body: { choices: [{ message: { role: 'assistant', content: text } }] } });
  if (body.model === 'plain') {
    if (body.response_format !== undefined) return { status: 400, body: { error: { message: "response_format 'json_schema' is not supported" } } };
    return content(JSON.stringify({ score: 0.8, rationale: 'plain answer' }));
  }
  const k = Number(/^m(\d)(?:-[\w.]+)?$/.exec(body.model)?.[1] ?? 'NaN');
  const scores = /^scores (.*)$/.exec(criterion);
  if (scores) return content(JSON.stringify({ rationale: `member ${k} says ${scores[1]?.split(',')[k]}`, score: Number(scores[1]?.split(',')[k]) }));
  const letter = /^split (\w+)$/.exec(criterion)?.[1]?.[k];
  if (letter === 'P') return content(JSON.stringify({ rationale: `m${k}: meets it`, score: 0.9 }));
  if (letter === 'F') return content(JSON.stringify({ rationale: `m${k}: misses it`, score: 0.2 }));
  if (letter === 'U') return content('I would rather not give a number.');
  if (letter === 'L') return { status: 200, body: { choices: [{ message: { role: 'assistant', content: '{"rationale": "Polite, and' }, finish_reason: 'length' }] } };
  return { status: 503, body: { error: { message: 'overloaded' } } };
}

/** A real server on 127.0.0.1 answering every request by `panelAnswer`. */
export function startPanelJudge(): Promise<TestServer> {
  return startServer([
    (res, req) => {
      const a = panelAnswer(req);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    },
  ]);
}
