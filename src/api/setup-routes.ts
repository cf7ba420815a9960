/**
 * The setup page's routes (/setup.html, operator only): test rolls judged by
 * the operator and this tower's accuracy tally (src/setup/test-rolls.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MAX_TEST_DICE, type TestRolls } from '../setup/test-rolls.js';
import type { RouteAccess } from './app.js';
import { AccuracyTallySchema } from './schemas.js';

type Guard = { onRequest: (request: FastifyRequest, reply: FastifyReply) => Promise<void>; config: { access: RouteAccess } };

const errors = { 400: { $ref: 'ErrorReply#' }, 404: { $ref: 'ErrorReply#' }, 409: { $ref: 'ErrorReply#' }, 503: { $ref: 'ErrorReply#' } };


const point = { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } } } as const;
const TestRollReply = {
  type: 'object',
  required: ['id', 'count', 'attempts', 'valid', 'problems', 'frameUrl', 'reading'],
  properties: {
    id: { type: 'string' },
    count: { type: 'integer' },
    attempts: { type: 'integer' },
    valid: { type: 'boolean' },
    problems: { type: 'array', items: { type: 'string' } },
    frameUrl: { type: 'string' },
    reading: {
      type: 'object',
      properties: {
        width: { type: 'number' },
        height: { type: 'number' },
        dice: {
          type: 'array',
          items: { type: 'object', properties: { value: { type: ['integer', 'null'] }, colour: { type: 'string' }, center: point, box: { type: 'array', items: point }, confidence: { type: 'number' } } },
        },
      },
    },
  },
} as const;

const RollIdParams = { type: 'object', required: ['rollId'], properties: { rollId: { type: 'string', pattern: '^[0-9a-f-]{36}$' } } } as const;

export function registerSetupRoutes(api: FastifyInstance, testRolls: TestRolls, operator: Guard): void {
  api.post<{ Body: { count: number } }>(
    '/api/setup/test-rolls',
    {
      ...operator,
      schema: {
        body: { type: 'object', required: ['count'], additionalProperties: false, properties: { count: { type: 'integer', minimum: 1, maximum: MAX_TEST_DICE } } },
        response: { 200: TestRollReply, ...errors },
      },
    },
    async (request) => testRolls.roll(request.body.count),
  );

  // An <img> cannot send the Authorization header: the page passes ?operator= (operatorOnly reads it).
  api.get<{ Params: { rollId: string } }>(
    '/api/setup/test-rolls/:rollId/frame.jpg',
    { ...operator, schema: { params: RollIdParams, querystring: { type: 'object', properties: { operator: { type: 'string', maxLength: 100 } } }, response: errors } },
    async (request, reply) => reply.type('image/jpeg').header('cache-control', 'no-store').send(testRolls.frame(request.params.rollId)),
  );

  api.post<{ Params: { rollId: string }; Body: { values: number[] } }>(
    '/api/setup/test-rolls/:rollId/verdict',
    {
      ...operator,
      schema: {
        params: RollIdParams,
        body: { type: 'object', required: ['values'], additionalProperties: false, properties: { values: { type: 'array', maxItems: 60, items: { type: 'integer', minimum: 0, maximum: 6 } } } },
        response: {
          200: {
            type: 'object',
            required: ['outcome', 'tally'],
            properties: {
              outcome: { type: 'object', properties: { right: { type: 'integer' }, unreadable: { type: 'integer' }, wrong: { type: 'integer' } } },
              tally: AccuracyTallySchema,
            },
          },
          ...errors,
        },
      },
    },
    async (request) => testRolls.verdict(request.params.rollId, request.body.values),
  );

  api.post('/api/setup/accuracy/reset', { ...operator, schema: { response: { 200: AccuracyTallySchema, ...errors } } }, async () => testRolls.reset());
}
