// Where a redirect points, as the agent client's and the judge's errors say it (src/http/redirect.ts).

import { describe, expect, it } from 'vitest';
import { redirectTarget } from '../../src/http/redirect.js';

describe('redirectTarget: where a redirect points, as an error message says it', () => {
  const from = new URL('https://preview.example.com/api/chat/');
  it('resolves a relative Location against the request, keeps origin and path, drops the query and credentials', () => {
    expect(redirectTarget('/api/chat?from=slash#x', from)).toBe('https://preview.example.com/api/chat');
    expect(redirectTarget(['https://u:pw@other.example.com/chat?token=t'], from)).toBe('https://other.example.com/chat');
    expect(redirectTarget('next', from)).toBe('https://preview.example.com/api/chat/next');
  });
  it('nothing to say without an http(s) Location', () => {
    expect(redirectTarget(undefined, from)).toBeNull();
    expect(redirectTarget('  ', from)).toBeNull();
    expect(redirectTarget('mailto:someone@example.com', from)).toBeNull();
    expect(redirectTarget('http://[bad', from)).toBeNull();
  });
  it('a very long address is cut at 200 characters', () => {
    const shown = redirectTarget(`/${'a'.repeat(400)}`, from) ?? '';
    expect(shown).toHaveLength(200);
    expect(shown.endsWith('\u2026')).toBe(true);
  });
});
