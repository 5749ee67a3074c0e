// Builds the real application on an in-memory (or given) database for `inject` tests.
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue, type VenueOptions } from '../../src-main/venue.ts';

export interface TestApp {
  app: FastifyInstance;
  venue: Venue;
  close(): Promise<void>;
}

export async function makeApp(opts: Partial<VenueOptions> = {}): Promise<TestApp> {
  const venue = openVenue({ dataDir: ':memory:', ...opts });
  const app = await buildApp({ venue });
  await app.ready();
  return {
    app,
    venue,
    async close() {
      await app.close();
      await venue.close();
    },
  };
}

export async function getJson(
  app: FastifyInstance,
  url: string,
): Promise<{ status: number; body: any; raw: string; type: string }> {
  const r = await app.inject({ method: 'GET', url });
  let body: unknown;
  try {
    body = JSON.parse(r.body);
  } catch {
    body = undefined;
  }
  return { status: r.statusCode, body, raw: r.body, type: String(r.headers['content-type'] ?? '') };
}
