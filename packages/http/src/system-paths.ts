/** OpenAPI entries of the operations served outside the route table. */
const plain = (operationId: string, summary: string, description: string) => ({
  get: {
    operationId,
    summary,
    tags: ['System'],
    security: [],
    responses: { '200': { description, content: { 'application/json': { schema: { type: 'object' } } } } },
  },
});

export const systemPaths: Record<string, object> = {
  '/healthz': plain('getHealth', 'Liveness', 'The process is up.'),
  '/readyz': {
    get: {
      ...plain('getReadiness', 'Readiness', 'The database (and Redis, when configured) answer.').get,
      responses: {
        '200': {
          description: 'The database (and Redis, when configured) answer.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
        '503': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/openapi.json': plain('getOpenApiDocument', 'This document', 'The OpenAPI 3.1 description.'),
  '/docs': {
    get: {
      operationId: 'getApiReference',
      summary: 'Human-readable reference',
      tags: ['System'],
      security: [],
      responses: {
        '200': { description: 'HTML reference.', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  },
};
