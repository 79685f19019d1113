// undici ships no types for its internal files; these are the shapes src/http/ and src/github/octokit.ts rely on.
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: unknown;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  const request: unknown;
  export default request;
}
declare module 'undici/lib/dispatcher/proxy-agent.js' {
  const ProxyAgent: unknown;
  export default ProxyAgent;
}
declare module 'undici/lib/api/api-connect.js' {
  const connect: unknown;
  export default connect;
}
declare module 'undici/lib/dispatcher/pool.js' {
  const Pool: unknown;
  export default Pool;
}
declare module 'undici/lib/core/connect.js' {
  const buildConnector: typeof import('undici').buildConnector;
  export default buildConnector;
}
declare module 'undici/lib/web/fetch/headers.js' {
  const headers: { Headers: typeof globalThis.Headers };
  export default headers;
}
declare module 'undici/lib/web/fetch/response.js' {
  const response: { Response: typeof globalThis.Response };
  export default response;
}
