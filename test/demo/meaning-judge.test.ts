// The demo judge answers the meaning judge's questions by a keyword rule (src/demo/judge.ts), so
// that `npm start` shows a reworded reply under Reworded and a changed number word under Changed.
import { describe, expect, it } from 'vitest';
import { judgeTurn, meaningAnswer } from '../../src/demo/judge.js';
import { meaningBoundary, meaningUserMessage } from '../../src/judge/meaning-prompt.js';

describe('demo judge: meaning questions', () => {
  it('the same facts in other words read as the same meaning', () => {
    expect(JSON.parse(meaningAnswer('Refunds are accepted within 30 days of purchase.', 'Yes: you can return anything within 30 days for a full refund.'))).toEqual({ difference: '', score: 0.9 });
  });

  it('a number word or a negation that differs is a different meaning, named', () => {
    expect(JSON.parse(meaningAnswer('We stock boots from two brands.', 'We stock boots from three brands.'))).toEqual({ difference: 'says "three" where the baseline said "two"', score: 0.1 });
    expect(JSON.parse(meaningAnswer('Returns are free.', 'Returns are not free.'))).toEqual({ difference: 'says "not" where the baseline said none', score: 0.1 });
  });

  it('an opinion gets prose with no score, as an opinion criterion does: the meaning is not checked', () => {
    const answer = meaningAnswer('Our rain jackets are my favourite.', 'I like our rain jackets best, to be honest.');
    expect(() => JSON.parse(answer) as unknown).toThrow();
    expect(answer).toContain('I would not want to put a number on it');
  });

  it('reads the replies from the quoted blocks of the real meaning prompt, not from the conversation', () => {
    const request = { before: [], message: 'Are returns free? Say two.', baseline: 'Returns are free.', now: 'Returning is free of charge.' };
    const boundary = meaningBoundary(request, () => 'abc123');
    const body = { messages: [{ role: 'user', content: meaningUserMessage(request, boundary) }] };
    const answer = judgeTurn(body) as { choices: { message: { content: string } }[] };
    expect(JSON.parse(answer.choices[0]!.message.content)).toEqual({ difference: '', score: 0.9 });
  });
});
