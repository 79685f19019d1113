// config.yml `traces:` (docs/traces.md, "The traces: section"): receive or query, the store's kind,
// URL and key from the environment, waitMs; every error at once with file:line; the key a secret.
import { describe, expect, it } from 'vitest';
import { formatIssue } from '../../src/suite/index.js';
import { makeRedactor } from '../../src/secrets.js';
import { C, F, OK_FIXTURE, brief, load } from './helpers.js';

const KEY = 'pk-lf-1234:sk-lf-secret-5678';

describe('config.yml traces', () => {
  it('is null without the section', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.traces).toBeNull();
  });

  it('receive: the port (default 4318; 0 for any free port) and waitMs (default 5000)', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  receive: { port: 0 }\n' });
    expect(r.errors).toEqual([]);
    // Where the file sets the port, for the error of a port in use.
    expect(r.suite!.config.traces).toEqual({ receive: { port: 0, portAt: '.agent-replay/config.yml:2' }, query: null, waitMs: 5000 });
    const dflt = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  receive: {}\n  waitMs: 12000\n' });
    expect(dflt.suite!.config.traces).toEqual({ receive: { port: 4318 }, query: null, waitMs: 12000 });
  });

  it('query: the password of a user:password key is a secret alone, as a store quotes it decoded from basic auth', async () => {
    for (const kind of ['langfuse', 'tempo']) {
      const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `traces:\n  query: { kind: ${kind}, url: "http://127.0.0.1:3200", apiKey: "\${TRACES_KEY}" }\n` }, { env: { TRACES_KEY: KEY } });
      expect(r.errors).toEqual([]);
      const redact = makeRedactor(r.suite!.config.secrets);
      expect(redact('invalid secret key sk-lf-secret-5678 for pk-lf-1234'), kind).toBe('invalid secret key *** for pk-lf-1234');
    }
  });

  it('query: the key comes from the environment, is a secret, and never appears in the run\u2019s messages', async () => {
    const r = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { kind: langfuse, url: "https://cloud.langfuse.com/", apiKey: "${LF_KEY}" }\n  waitMs: 30000\n' },
      { env: { LF_KEY: KEY } },
    );
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.suite!.config.traces).toEqual({ receive: null, query: { kind: 'langfuse', url: 'https://cloud.langfuse.com', apiKey: KEY, at: { kind: `${C}:2`, url: `${C}:2`, apiKey: `${C}:2` } }, waitMs: 30000 });
    expect(r.suite!.config.secrets).toContain(KEY);
    // As sent: basic auth's base64, which a store may echo back in an error.
    expect(r.suite!.config.secrets).toContain(Buffer.from(KEY, 'utf8').toString('base64'));
    const tempo = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { kind: tempo, url: "http://127.0.0.1:3200" }\n' });
    expect(tempo.suite!.config.traces).toEqual({ receive: null, query: { kind: 'tempo', url: 'http://127.0.0.1:3200', apiKey: null, at: { kind: `${C}:2`, url: `${C}:2` } }, waitMs: 5000 });
  });

  it('a key written in the file is still a secret, with a warning that names no key', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: `traces:\n  query: { kind: jaeger, url: "http://127.0.0.1:16686", apiKey: "written-key-9876" }\n` });
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.secrets).toContain('written-key-9876');
    expect(r.warnings.map(formatIssue)).toEqual([
      `${C}:2:65: traces.query.apiKey is written in the file: anyone who can read the repository can use it\n  fix: move it to a secret and write apiKey: "\${TRACES_KEY}" (export TRACES_KEY, or set it from secrets in the workflow env)`,
    ]);
  });

  it('neither or both of receive and query are errors with the line', async () => {
    const none = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  waitMs: 100\n' });
    expect(none.suite).toBeNull();
    expect(brief(none.errors)).toEqual([`${C}:2: traces needs receive or query: where the agent's spans come from`]);
    const both = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  receive: { port: 4318 }\n  query: { kind: jaeger, url: "http://127.0.0.1:16686" }\n' });
    expect(brief(both.errors)).toEqual([`${C}:2: traces has both receive and query: spans come from one place`]);
  });

  it('every error of the section at once, beside the other sections\u2019, each with its line', async () => {
    const r = await load({
      [`${F}/a.yml`]: OK_FIXTURE,
      [C]: 'repeat: { count: 3, minPass: 5 }\ntraces:\n  receive: { port: 70000, host: x }\n  waitMs: -1\n',
    });
    expect(r.suite).toBeNull();
    expect(brief(r.errors)).toEqual([
      `${C}:1: repeat.minPass 5 is not a whole number from 1 to count (3)`,
      `${C}:3: traces.receive.port must be a port number from 0 to 65535 (0: any free port, said in the log), found the number 70000`,
      `${C}:3: unknown key "host" in traces.receive; allowed keys: port`,
      `${C}:4: traces.waitMs must be a whole number of milliseconds from 0 to 600000 (10 minutes), found the number -1`,
    ]);
    const kind = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query:\n    kind: zipkin\n    url: http://x\n    key: k\n' });
    expect(brief(kind.errors)).toEqual([
      `${C}:3: traces.query.kind must be one of tempo, jaeger, langfuse, found the string "zipkin"`,
      `${C}:5: unknown key "key" in traces.query; allowed keys: kind, url, apiKey, headers`,
    ]);
  });

  it('the URL\u2019s and the Langfuse key\u2019s problems, reported even when another section\u2019s shape is wrong, never quoting a key', async () => {
    const r = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'judge: { modle: x }\ntraces:\n  query: { kind: langfuse, url: "ftp://u:pw@lf.example", apiKey: "${LF_KEY}" }\n' },
      { env: { LF_KEY: 'no-colon-secret-1234' } },
    );
    expect(brief(r.errors)).toEqual([
      `${C}:1: unknown key "modle" in judge; allowed keys: provider, baseUrl, model, apiKey, timeoutMs, retries, backoffMs, concurrency, label, panel`,
      `${C}:3: traces.query.url "ftp://lf.example" uses ftp, not http or https`,
      `${C}:3: traces.query.apiKey for Langfuse must be "public:secret" (the project's public key, a colon, its secret key)`,
    ]);
    expect(r.errors.map(formatIssue).join('\n')).not.toContain('no-colon-secret');
    const missing = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { kind: langfuse, url: "https://cloud.langfuse.com?x=1" }\n' });
    expect(brief(missing.errors)).toEqual([
      `${C}:2: traces.query.apiKey is not set: Langfuse answers only with a project's keys`,
      `${C}:2: traces.query.url "https://cloud.langfuse.com?x=1" has a query string: the trace's path is added to the base address`,
    ]);
  });

  it('a URL whose password holds "@" is quoted without any of its user and password', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { kind: tempo, url: "ftp://u:p@ss-secret-9@tempo.example" }\n' });
    expect(brief(r.errors)).toEqual([`${C}:2: traces.query.url "ftp://tempo.example" uses ftp, not http or https`]);
  });

  it('a key from an unset variable is an error naming the variable, not the key', async () => {
    const r = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query: { kind: tempo, url: "https://tempo.example.com", apiKey: "${TEMPO_KEY}" }\n' });
    expect(brief(r.errors)).toEqual([`${C}:2: environment variable TEMPO_KEY is not set`]);
  });

  it('query.headers: sent with every request (a Tempo tenant), written values as written, a ${VAR} value a secret; a bad or reserved name is an error at its line', async () => {
    const r = await load(
      { [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query:\n    kind: tempo\n    url: https://tempo.example.com\n    headers:\n      X-Scope-OrgID: "${TEMPO_TENANT}"\n      X-Version: 1.10\n' },
      { env: { TEMPO_TENANT: 'tenant-secret-4321' } },
    );
    expect(r.errors).toEqual([]);
    expect(r.suite!.config.traces).toEqual({
      receive: null,
      query: { kind: 'tempo', url: 'https://tempo.example.com', apiKey: null, headers: { 'X-Scope-OrgID': 'tenant-secret-4321', 'X-Version': '1.10' }, at: { kind: `${C}:3`, url: `${C}:4`, headers: `${C}:6` } },
      waitMs: 5000,
    });
    expect(r.suite!.config.secrets).toContain('tenant-secret-4321');
    const bad = await load({ [`${F}/a.yml`]: OK_FIXTURE, [C]: 'traces:\n  query:\n    kind: tempo\n    url: https://tempo.example.com\n    headers:\n      "X Tenant": a\n      Authorization: "Bearer k"\n' });
    expect(brief(bad.errors)).toEqual([
      `${C}:6: traces.query.headers has "X Tenant", which is not an HTTP header name`,
      `${C}:7: traces.query.headers sets Authorization, which agent-replay sets itself`,
    ]);
    expect(bad.errors.map((e) => e.fix)).toEqual(['use letters, digits and - only, e.g. X-Scope-OrgID: my-tenant', 'give the key as traces.query.apiKey (user:password for basic auth), from a secret']);
  });
});
