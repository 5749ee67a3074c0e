// startService: the one way the venue starts, used by the Electron main and the headless entry.
import type { FastifyInstance } from 'fastify';
import { buildApp } from './api/app.ts';
import type { RateLimitOptions } from './api/rate-limit.ts';
import type { AccountSpec } from './cli-args.ts';
import { newLoginToken, type LoginToken } from './api/routes/session.ts';
import { ensureLocalAccount } from './local-account.ts';
import { openVenue, type LocalVenue } from './venue.ts';
import { removeServiceFile, writeServiceFile } from './service-file.ts';

export interface ServiceOptions {
  /** Interface to listen on; 127.0.0.1 unless told otherwise. */
  host?: string;
  /** Port; 0 picks a free one. */
  port?: number;
  /** Folder of the SQLite database ('./data' style path, or ':memory:'). */
  dataDir: string;
  seed?: number;
  speed?: number;
  /** Paper accounts to create or update (--account). */
  accounts?: readonly AccountSpec[];
  /** Built renderer folder to serve at '/'. */
  uiDir?: string;
  logger?: boolean;
  /** Run the simulated market (default true). */
  simulate?: boolean;
  /** Volatility and taker-intensity multipliers of the simulated market (0.1 to 10). */
  simVolatility?: number;
  simIntensity?: number;
  /** Progress lines while the first start builds the simulated history. */
  onProgress?: (line: string) => void;
  /** Rate limits (docs/api.md, Rate limits); false turns them off (benchmarks). */
  rateLimit?: RateLimitOptions | false;
}

export interface ServiceHandle {
  /** http://HOST:PORT */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly app: FastifyInstance;
  readonly venue: LocalVenue;
  /** The one-time browser login URL (`/#token=...`) for the local account. */
  readonly loginUrl: string;
  close(): Promise<void>;
}

export async function startService(opts: ServiceOptions): Promise<ServiceHandle> {
  const venue = openVenue({
    dataDir: opts.dataDir,
    seed: opts.seed,
    speed: opts.speed,
    simulate: opts.simulate ?? true,
    simVolatility: opts.simVolatility,
    simIntensity: opts.simIntensity,
    onHistoryProgress: (p) => opts.onProgress?.(`perpdesk: building simulated history ${p.done}/${p.total} ${p.symbol}`),
  });
  for (const a of opts.accounts ?? []) {
    const row = venue.exchange.execute({ kind: 'upsertAccount', spec: { apiKey: a.apiKey, apiSecret: a.apiSecret, kind: 'user', balance: a.balance }, now: Date.now() });
    // the mode is the account's, on every surface; refused (3015) while it holds positions or orders
    if (a.positionMode !== undefined && venue.exchange.summary(row.id).position_mode !== a.positionMode) {
      venue.exchange.execute({ kind: 'setPositionMode', accountId: row.id, mode: a.positionMode });
    }
  }
  const local = ensureLocalAccount(venue);
  const loginToken: LoginToken = newLoginToken(local.id);
  let app: FastifyInstance;
  try {
    const bind = opts.host ?? '127.0.0.1';
    const loopback = bind === '127.0.0.1' || bind === '::1' || bind === 'localhost';
    app = await buildApp({ venue, uiDir: opts.uiDir, logger: opts.logger, loginToken, rateLimit: opts.rateLimit, loopbackHostsOnly: loopback });
    await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  } catch (err) {
    await venue.close();
    throw err;
  }
  venue.market?.start();
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (opts.port ?? 0);
  const host = opts.host ?? '127.0.0.1';
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | null = null;
  // where this venue listens, for `npm run data` run on the same folder (service-file.ts)
  writeServiceFile(opts.dataDir, `http://${urlHost}:${port}`);
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    app,
    venue,
    loginUrl: `http://${urlHost}:${port}/#token=${loginToken.value}`,
    close() {
      closing ??= (async () => {
        venue.market?.stop();
        removeServiceFile(opts.dataDir);
        try {
          await app.close();
        } finally {
          await venue.close();
        }
      })();
      return closing;
    },
  };
}
