// Every facade route's 200 answer schema, by "METHOD path" under /binance (the groups:
// response-schemas-market.ts, -orders.ts, -account.ts), and how the facade writes its answers.
//
// Fastify compiles a route's response schemas into serializers (fast-json-stringify) that write
// only the fields a schema lists, in its order, coerced to its types: a schema slightly wrong
// would silently change the answer. So the facade's answer schemas are documentation, checked
// by a test that holds every route's real answers to them (test/api/binance/answer-schemas.test.ts),
// and its routes answer with JSON.stringify of what the handler returns (DOCUMENTATION, given to
// each route by index.ts's onRoute hook); but the routes in SERIALIZED, whose serializer is compiled
// from their schema (POST /fapi/v1/order: the benchmarked order path, ORDER_ANSWER types its
// handler's answer).
import type { FastifySerializerCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { ACCOUNT_ANSWERS } from './response-schemas-account.ts';
import { MARKET_ANSWERS } from './response-schemas-market.ts';
import { ORDER_ANSWERS } from './response-schemas-orders.ts';

/** The 200 answer of every facade REST route, by "METHOD path". */
export const ANSWERS: Readonly<Record<string, TSchema | null>> = {
  ...MARKET_ANSWERS,
  ...ORDER_ANSWERS,
  ...ACCOUNT_ANSWERS,
};

/** The routes whose answers are written by the serializer compiled from their schemas. */
const SERIALIZED: ReadonlySet<string> = new Set(['POST /fapi/v1/order']);

/** Whether the route "METHOD path" writes its answers through its schemas' serializers. */
export function serializesAnswers(key: string): boolean {
  return SERIALIZED.has(key);
}

/** The serializer of a route whose response schemas are documentation: the answer as the handler returns it. */
export const DOCUMENTATION: FastifySerializerCompiler<unknown> = () => (data) => JSON.stringify(data);
