// What to do about an agent's answer that the client could not read (docs/troubleshooting.md, "The
// agent"): pure, so that the agent's client and `--wait-for-agent` (src/agent/) and the report's
// causes (src/evaluate/causes.ts, which may not import agent/) say each fix in the same words.

/** An agent that took the connection and closed it before any answer, or with a body of another length than its header says. */
/** An agent that answered and whose connection closed mid-answer (its answer broke off before its end): not retried, as it had the turn. */
export const BROKE_OFF_FIX = "the agent answered and its connection closed mid-answer, which is not retried (the agent had the turn): see the agent's log for a crash while it answered, or a proxy or load balancer in front of it that cuts a long answer (an idle timeout on a stream)";
export const CLOSED_FIX = "see the agent's log for a crash on the request, or a proxy in front of it that closes connections";

/** An answer whose headers are over the size read. */
export const HEADERS_FIX = 'see what makes the agent, or a proxy in front of it, send that many headers (a cookie set on every answer, a header that grows)';

/** An answer that is not HTTP at the agent's address. */
export const NOT_HTTP_FIX = "something other than the agent's HTTP server answers there: check the port in agent-url (agent.url)";
