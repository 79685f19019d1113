// undici ships no types for its internal files; these are the shapes src/http/undici.ts relies on.
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
