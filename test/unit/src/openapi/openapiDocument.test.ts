/** The generated OpenAPI document's rendering of request parameters (src/openapi/), without a server. */
import { describe, expect, it } from 'vitest';
import { apiDocument as buildOpenApiDocument } from '../../../../src/wiring/apiDocument.js';
import { MAX_REVERSE_RADIUS_METRES, MAX_REVERSE_SIZE } from '../../../../src/schemas/requests.js';

const doc = buildOpenApiDocument() as any;
const parameter = (path: string, name: string) =>
  doc.paths[path].get.parameters.find((p: { name: string }) => p.name === name);

describe('query numbers', () => {
  it('are documented as the numbers the schemas read, with their range and default, not as patterned strings', () => {
    expect(parameter('/reverse', 'lat')).toMatchObject({
      required: true,
      schema: { type: 'number', minimum: -90, maximum: 90 },
    });
    expect(parameter('/reverse', 'size').schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: MAX_REVERSE_SIZE,
      default: 1,
    });
    expect(parameter('/reverse', 'radius').schema).toMatchObject({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_REVERSE_RADIUS_METRES,
      default: 200,
    });
    expect(parameter('/search', 'lon').schema).toMatchObject({ type: 'number', minimum: -180, maximum: 180 });
    for (const p of ['lat', 'size', 'radius']) expect(parameter('/reverse', p).schema.pattern).toBeUndefined();
  });

  it('leaves text parameters as strings with their constraints', () => {
    expect(parameter('/search', 'q')).toMatchObject({ required: true, schema: { type: 'string', maxLength: 200 } });
    expect(parameter('/countries', 'country_code').schema).toMatchObject({
      type: 'string',
      pattern: '^[A-Za-z]{2,3}$',
    });
  });

  it('carries no Unicode property escapes in request patterns (Swagger UI would refuse every value)', () => {
    const requests = Object.values(doc.paths).flatMap((item) =>
      Object.values(item as object).map((op: any) => [op.parameters, op.requestBody]),
    );
    expect(JSON.stringify(requests)).not.toMatch(/\\\\p\{/);
    expect(parameter('/cities', 'name').description).toMatch(/letter or digit/);
  });
});

describe('operations', () => {
  const operations = Object.values(doc.paths).flatMap((item) => Object.values<any>(item as object));

  it('have unique operation ids', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('document 401 wherever a key is needed, 429 everywhere, and 304 with an If-None-Match parameter where ETags apply', () => {
    for (const op of operations) {
      const keyed = op.security === undefined || op.security.some((r: object) => 'ApiKey' in r);
      if (keyed) expect(op.responses['401'], op.operationId).toBeDefined();
      // Keyed: the key's budget; open: the per-address budget of requests without a key (ANON_RATE_LIMIT_*).
      const limited = keyed ? 'RateLimited' : 'AnonymousRateLimited';
      // A compatibility dialect's route answers the same statuses in its own error shape: inline, not the envelope.
      if (op.tags.includes('Compatibility')) {
        expect(op.responses['429'].description, op.operationId).toBe(doc.components.responses[limited].description);
        expect(op.responses['429'].content['application/json'].schema.$ref, op.operationId).toBeUndefined();
      } else expect(op.responses['429']?.$ref, op.operationId).toBe(`#/components/responses/${limited}`);
      const conditional = Boolean(op.responses['304']);
      expect(conditional, op.operationId).toBe(
        Boolean(op.parameters?.some((p: { name: string }) => p.name === 'If-None-Match')),
      );
      if (conditional) expect(Object.keys(op.responses['200'].headers)).toContain('ETag');
    }
  });
});

describe('the description of limits', () => {
  it("states the deployment's own body limits and rate limit, not the defaults", () => {
    const configured = buildOpenApiDocument({
      bodyLimitBytes: 32 * 1024,
      batchBodyLimitBytes: 4 * 1024 * 1024,
      rateLimit: { rps: 50, burst: 100 },
      anonymousRateLimit: { rps: 5, burst: 10 },
    }) as any;
    expect(configured.info.description).toContain('Request bodies are limited to 32 KiB (`/geocode/batch`: 4 MiB)');
    expect(configured.info.description).toContain('Each key may make 50 requests per second (bursts of 100)');
    expect(configured.info.description).toContain('5 times per second from one address (bursts of 10)');
    expect(doc.info.description).toContain('Request bodies are limited to 16 KiB (`/geocode/batch`: 1 MiB)');
    expect(doc.info.description).toContain('This deployment sets no per-key rate limit.');
  });
});
