// Pair logos drawn by the service itself, so the app shows no remote content.
import { Type } from 'typebox';
import { ApiError, Errors } from '../../../src-shared/errors.ts';
import type { Venue } from '../../services/venue.ts';
import { errorEnvelopeSchema } from '../envelope.ts';
import { noQuery, type ApiInstance } from '../schemas.ts';

function hue(name: string): number {
  let h = 0;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) % 360;
  return h;
}

function logoSvg(base: string): string {
  const label = base.replace(/^1000/, '').slice(0, 3);
  const size = label.length > 2 ? 11 : 14;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">` +
    `<circle cx="16" cy="16" r="16" fill="hsl(${hue(base)},55%,42%)"/>` +
    `<text x="16" y="20.5" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="#fff">${label}</text>` +
    `</svg>`
  );
}

export default async function logoRoutes(app: ApiInstance, opts: { venue: Venue }): Promise<void> {
  const { venue } = opts;
  app.get(
    '/logos/:file',
    {
      schema: {
        tags: ['market data'],
        summary: "Logo of a pair's base asset (SVG)",
        params: Type.Object({
          file: Type.String({ pattern: '^[A-Za-z0-9]{1,20}\\.svg$', description: 'Base asset and .svg, e.g. BTC.svg' }),
        }),
        querystring: noQuery,
        response: {
          200: {
            description: 'The logo, an SVG image',
            content: { 'image/svg+xml': { schema: Type.String() } },
          },
          400: errorEnvelopeSchema,
          404: { ...errorEnvelopeSchema, description: 'No pair has that base asset (1101)' },
        },
      },
    },
    async (req, reply) => {
      const base = req.params.file.slice(0, -4).toUpperCase();
      if (!venue.symbols.all().some((s) => s.baseAsset === base)) {
        throw new ApiError(Errors.SYMBOL_NOT_FOUND, `No pair has base asset '${base}'`);
      }
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(logoSvg(base));
    },
  );
}
