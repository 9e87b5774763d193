import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../routes/index.js';
import { systemPaths } from '../system-paths.js';
import { buildOpenApiDocument } from './document.js';

const doc = buildOpenApiDocument(apiRoutes, {
  serverUrl: 'http://localhost:3000',
  extraPaths: systemPaths,
}) as {
  paths: Record<string, Record<string, { parameters?: object[]; responses: Record<string, unknown> }>>;
};

type Parameter = { in?: string; name?: string; schema?: { maxLength?: number } };

describe('the served contract', () => {
  it('bounds every path parameter with maxLength', () => {
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const shared = ((item as { parameters?: Parameter[] }).parameters ?? []) as Parameter[];
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'parameters') continue;
        for (const parameter of [...shared, ...((operation.parameters ?? []) as Parameter[])]) {
          if (parameter.in === 'path' && !parameter.schema?.maxLength)
            unbounded.push(`${method} ${path} ${parameter.name}`);
        }
      }
    }
    expect(unbounded).toEqual([]);
  });

  it.each([
    ['/openapi.json', 'get'],
    ['/docs', 'get'],
    ['/sandbox/pay/{token}', 'get'],
    ['/sandbox/pay/{token}', 'post'],
  ])('documents the 429 of %s (%s), which counts against the per-IP limit', (path, method) => {
    expect(doc.paths[path]?.[method]?.responses['429']).toEqual({
      $ref: '#/components/responses/RateLimited',
    });
  });
});
