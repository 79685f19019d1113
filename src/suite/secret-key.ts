// Which config.yml keys hold credentials (docs/security.md, "Secrets"); imports nothing, so that
// the modules that read config.yml and addresses share it.

/**
 * Key names whose values are credentials, at any depth and however the key around them is spelt:
 * `apiKey`, a token, an `Authorization` or `X-Api-Key` header, a deployment's protection bypass.
 */
export const SECRET_KEY = /api[-_]?key|token$|secret|passw|auth|credential|cookie|bypass|signature/i;
