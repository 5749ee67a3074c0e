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

/** A request as injectFetch hands it to the application. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * A fetch that hands each request to the application by Fastify's inject (no socket): the SDK's
 * clients against the real routes. `onSend` sees each request as sent.
 */
export function injectFetch(app: FastifyInstance, onSend?: (s: SentRequest) => void): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input);
    const headers = (init?.headers ?? {}) as Record<string, string>;
    const body = init?.body === undefined || init?.body === null ? undefined : String(init.body);
    onSend?.({ url, method: init?.method ?? 'GET', headers, body });
    const u = new URL(url);
    const r = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: u.pathname + u.search,
      headers,
      payload: body,
    });
    // every header of the answer, as a socket would carry it (Retry-After, Content-Type, ...)
    const answered = Object.entries(r.headers).flatMap(([k, v]): Array<[string, string]> =>
      v === undefined ? [] : Array.isArray(v) ? v.map((x) => [k, x]) : [[k, String(v)]],
    );
    return new Response(r.body, { status: r.statusCode, headers: answered });
  }) as typeof fetch;
}
