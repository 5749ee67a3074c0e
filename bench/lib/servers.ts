// Servers the benchmarks start in their own process: every one listens on 127.0.0.1, port 0
// (a free one), so a bench never reaches beyond the machine nor collides with a running venue.

import Fastify, { type FastifyInstance } from 'fastify';

/** Starts `app` on 127.0.0.1 at a free port; resolves with its base URL (no trailing slash). */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const a = app.server.address();
  return `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
}

/** The same-run baseline of the HTTP benches: a bare Fastify app answering GET / with {"hello":"world"}. */
export function helloWorld(): FastifyInstance {
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  return hello;
}
