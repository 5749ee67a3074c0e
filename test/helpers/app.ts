// Builds the real application on an in-memory (or given) database for `inject` tests.
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src-main/api/app.ts';
import { openVenue, type LocalVenue as Venue, type VenueOptions } from '../../src-main/venue.ts';

export interface TestApp {
  app: FastifyInstance;
  venue: Venue;
  close(): Promise<void>;
}

/** The application on a venue made of `opts`; `appOpts` are the application's own (rate limits, ...). */
export async function makeApp(
  opts: Partial<VenueOptions> = {},
  appOpts: Omit<AppOptions, 'venue'> = {},
): Promise<TestApp> {
  const venue = openVenue({ dataDir: ':memory:', ...opts });
  const app = await buildApp({ ...appOpts, venue });
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
