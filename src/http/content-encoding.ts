// A response body as its sender meant it: decoded from its `Content-Encoding` (docs/presets.md,
// "Streamed replies"; the judge's answers too: docs/judges.md, "Compressed answers"). A request without `Accept-Encoding` accepts any coding (RFC 9110, 12.5.3),
// and undici's request API, unlike fetch, does not decode: a server or a proxy that compresses
// anyway would otherwise hand a gzip body to the JSON parser. gzip, deflate and br are decoded, as
// fetch does; the decoded bytes are held to the same limit as the bytes received, so a small
// compressed body cannot unpack into gigabytes.

import { Transform, type Readable } from 'node:stream';

// node:zlib is loaded on the first compressed answer, not at every start (about 2 ms of a cold
// start that most runs never need: docs/performance.md).
const zlib = (): typeof import('node:zlib') => process.getBuiltinModule('node:zlib');

/**
 * Codings we decode, by their token (RFC 9110, 8.4.1; `x-gzip` is gzip), with fetch's leniency
 * (docs/presets.md, "Streamed replies"): a body that ends without its coding's trailer gives what
 * it holds, and `deflate` is read in either form servers send, zlib-wrapped (RFC 1950) or raw
 * (RFC 1951), told apart by its first byte as undici's fetch tells them.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: () => gunzip(),
  'x-gzip': () => gunzip(),
  deflate: () => inflate(),
  br: () => zlib().createBrotliDecompress({ flush: zlib().constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib().constants.BROTLI_OPERATION_FLUSH }),
};

const syncFlush = (): { flush: number; finishFlush: number } => ({ flush: zlib().constants.Z_SYNC_FLUSH, finishFlush: zlib().constants.Z_SYNC_FLUSH });

const gunzip = (): Transform => zlib().createGunzip(syncFlush());

/** `deflate`: a zlib stream when the low half of its first byte is 8 (the deflate method), else raw deflate. */
function inflate(): Transform {
  let inner: Transform | null = null;
  const outer: Transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (inner === null) {
        if (chunk.length === 0) return callback();
        const z = (chunk[0]! & 0x0f) === 0x08 ? zlib().createInflate(syncFlush()) : zlib().createInflateRaw(syncFlush());
        z.on('data', (data: Buffer) => outer.push(data));
        z.on('error', (err) => outer.destroy(err));
        inner = z;
      }
      inner.write(chunk, callback);
    },
    flush(callback) {
      if (inner === null) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
    destroy(err, callback) {
      inner?.destroy();
      callback(err);
    },
  });
  return outer;
}

/** The decoded body was larger than the limit: the same code undici gives a body over its maxResponseSize. */
export class DecodedTooLarge extends Error {
  readonly code = 'UND_ERR_RES_EXCEEDED_MAX_SIZE';
}

/** The body is not valid data of the coding its header names. */
export class UndecodableBody extends Error {
  override name = 'UndecodableBody';
}

/**
 * The body's bytes, decoded from the codings its `Content-Encoding` lists (the last applied is
 * undone first), at most `maxBytes` of them once decoded; or, for a coding we do not decode, its
 * name. No header (or `identity`): the body itself. `subject` names the body in the error of one
 * that is not what its coding says.
 */
export function decodedBody(body: Readable, header: string | string[] | undefined, maxBytes: number, subject = "the agent's answer"): AsyncIterable<Uint8Array> | { unknown: string } {
  const written = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '' && c.toLowerCase() !== 'identity');
  const codings = written.map((c) => c.toLowerCase());
  if (codings.length === 0) return body;
  // An unknown coding is named as the header wrote it: the sender's text, which may echo a secret,
  // must reach the redactor in its own case (docs/security.md, "Secrets").
  const unknown = written.find((c) => !Object.hasOwn(DECODERS, c.toLowerCase()));
  if (unknown !== undefined) return { unknown };
  let stream: Readable = body;
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS[coding]!();
    const from = stream;
    // An error of the body (the deadline, a closed connection) reaches the reader as it is.
    from.on('error', (err) => decoder.destroy(err));
    stream = from.pipe(decoder);
  }
  return limited(body, stream, maxBytes, codings.join(', '), subject);
}

async function* limited(body: Readable, stream: Readable, maxBytes: number, codings: string, subject: string): AsyncIterable<Uint8Array> {
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new DecodedTooLarge(`decoded response is larger than ${maxBytes} bytes`);
      yield chunk;
    }
  } catch (err) {
    if (isZlibError(err)) throw new UndecodableBody(`${subject} says it is encoded as ${codings}, but it is not (${(err as Error).message})`);
    throw err;
  } finally {
    // Stopped early (the limit, an error): the body is not read on.
    stream.destroy();
    body.destroy();
  }
}

/** zlib's own errors (`Z_DATA_ERROR`, `Z_BUF_ERROR`, `ERR_BROTLI_...`), not the body's. */
function isZlibError(err: unknown): boolean {
  const code = err !== null && typeof err === 'object' && 'code' in err ? (err as { code: unknown }).code : undefined;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR__'));
}

/** Reads a whole (decoded) body into text: UTF-8, a leading byte-order mark dropped. */
export async function bodyText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  const parts: string[] = [];
  for await (const chunk of chunks) parts.push(decoder.decode(chunk, { stream: true }));
  parts.push(decoder.decode());
  return parts.join('');
}
