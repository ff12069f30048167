/**
 * The JSON body text as the service reads it without koa-bodyparser (the usual request: a Content-Length and no
 * Content-Encoding): the same answers as co-body's strict mode with @hapi/bourne's prototype check.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/http/errors.js';
import { parseStrictJson } from '../../../../src/http/jsonBody.js';

const refused = (text: string) => {
  try {
    parseStrictJson(text);
  } catch (error) {
    return error instanceof ApiError ? `${error.status} ${error.code}` : 'other error';
  }
  return 'accepted';
};

describe('JSON body text', () => {
  it('reads an object or an array, after white space; an empty body is {}', () => {
    expect(parseStrictJson(' \n{"streetname":"Mekelweg","number":"8"}')).toEqual({
      streetname: 'Mekelweg',
      number: '8',
    });
    expect(parseStrictJson('[1]')).toEqual([1]);
    expect(parseStrictJson('')).toEqual({});
  });

  it('refuses other JSON values and broken text with 400 invalid_request', () => {
    for (const text of ['"text"', '12', 'null', 'true', '{"streetname": ', 'streetname=Mekelweg', '{"a":1}x']) {
      expect(refused(text), text).toBe('400 invalid_request');
    }
  });

  it('refuses an own __proto__ key at any depth, however it is escaped, and keeps other keys', () => {
    expect(refused('{"__proto__":{"admin":true},"streetname":"Mekelweg"}')).toBe('400 invalid_request');
    expect(refused('{"a":[{"\\u005f_proto__":1}]}')).toBe('400 invalid_request');
    expect(parseStrictJson('{"constructor":{"prototype":{"polluted":1}}}')).toEqual({
      constructor: { prototype: { polluted: 1 } },
    });
    expect(parseStrictJson('{"note":"\\"__proto__\\": is only text"}')).toEqual({ note: '"__proto__": is only text' });
  });
});
