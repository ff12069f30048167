import type { IncomingMessage } from 'node:http';
import type { Context, Next } from 'koa';
import bodyParser from 'koa-bodyparser';
import { bodyShapeProblem, MAX_BODY_DEPTH } from './bodyShape.js';
import { ApiError } from './errors.js';

const notJson = () => new ApiError(400, 'invalid_request', 'Request body is not a valid JSON object');
const tooDeep = () =>
  new ApiError(400, 'invalid_request', `Request body is nested deeper than ${MAX_BODY_DEPTH} levels`);
const tooLarge = (limitBytes: number) =>
  new ApiError(413, 'payload_too_large', `Request body exceeds ${limitBytes} bytes`);

function parser(limitBytes: number) {
  return bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${limitBytes}b`,
    strict: true,
    onerror: (error) => {
      if ((error as { status?: number }).status === 413) throw tooLarge(limitBytes);
      throw notJson();
    },
  });
}

/** co-body's strict mode: only an object or an array (after white space) is a JSON body. */
// eslint-disable-next-line no-control-regex -- JSON's white space (tab, line feed, carriage return), on purpose
const STRICT_START = /^[\x20\x09\x0a\x0d]*[[{]/;
/** @hapi/bourne's test (co-body's prototype-poisoning check): only text matching it is scanned for the key. */
const PROTO_SUSPECT =
  /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/;

/** 400 for a body nested deeper than MAX_BODY_DEPTH or (`protoSuspect`) with an own `__proto__` key. */
function checkShape(body: unknown, protoSuspect: boolean): void {
  const problem = bodyShapeProblem(body, protoSuspect);
  if (problem === 'too_deep') throw tooDeep();
  if (problem === 'proto_key') throw notJson();
}

/**
 * What koa-bodyparser answers for the same text: {} when empty, 400 unless an object or array without `__proto__`;
 * and 400 when nested deeper than MAX_BODY_DEPTH.
 */
export function parseStrictJson(text: string): unknown {
  if (!text) return {};
  if (!STRICT_START.test(text)) throw notJson();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw notJson();
  }
  checkShape(parsed, PROTO_SUSPECT.test(text));
  return parsed;
}

/**
 * The body's `length` bytes as text (UTF-8, a byte order mark dropped, as co-body decodes it). The listeners are
 * inline and never removed (they go with the request): the entry points run under tsx, which names every function
 * stored in a variable with a call per creation, a cost per request here.
 */
function readText(req: IncomingMessage, length: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let ended = false;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      chunks.push(chunk);
    });
    req.once('end', () => {
      ended = true;
      if (received !== length) return reject(notJson());
      const text = Buffer.concat(chunks, received).toString('utf8');
      resolve(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    });
    // A request that fails or closes before its end. Every request closes once answered: the error is built only
    // when the body did not end (an Error captures a stack trace, 2 % of the API's CPU when built for every request).
    req.once('error', () => {
      if (!ended) reject(notJson());
    });
    req.once('close', () => {
      if (!ended) reject(notJson());
    });
  });
}

/**
 * JSON bodies only, with a hard size limit; anything else is refused before parsing. `limitsByPath` gives
 * endpoints whose bodies are larger by design (a batch of 1,000 addresses) their own limit.
 *
 * The usual request (a Content-Length, no Content-Encoding) is read and parsed here: koa-bodyparser's chain
 * (co-body, raw-body, iconv-lite, @hapi/bourne) cost 5-6 % of the API's CPU per forward request. Chunked and
 * compressed bodies still go through it; both paths give the same answers (400, 413).
 */
export function jsonBody(limitBytes: number, limitsByPath: Record<string, number> = {}) {
  const parse = parser(limitBytes);
  const parseByPath = new Map(Object.entries(limitsByPath).map(([path, limit]) => [path, parser(limit)]));
  const limitByPath = new Map(Object.entries(limitsByPath));
  const read = async (ctx: Context, next: Next) => {
    if (!ctx.is('application/json')) {
      throw new ApiError(415, 'unsupported_media_type', 'Content-Type must be application/json');
    }
    const { headers } = ctx.req;
    const declared = headers['content-length'];
    const encoding = headers['content-encoding'];
    if (declared === undefined || (encoding !== undefined && encoding !== 'identity')) {
      // koa-bodyparser has refused `__proto__` keys already (@hapi/bourne, iteratively): the depth is left.
      return (parseByPath.get(ctx.path) ?? parse)(ctx, () => {
        checkShape(ctx.request.body, false);
        return next();
      });
    }
    const limit = limitByPath.get(ctx.path) ?? limitBytes;
    const length = Number(declared);
    if (length > limit) throw tooLarge(limit);
    ctx.request.body = parseStrictJson(length === 0 ? '' : await readText(ctx.req, length));
    return next();
  };
  // Other methods carry no body to read: straight on, without a layer's promise.
  return (ctx: Context, next: Next) => (ctx.method === 'POST' ? read(ctx, next) : next());
}
