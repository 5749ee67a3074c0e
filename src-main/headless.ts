// Headless entry: the full service without a window, serving the web UI at '/'.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, parseCli, USAGE } from './cli-args.ts';
import { builtUiDir, defaultDataDir } from './paths.ts';
import { openFolderReplayData, startService } from './service.ts';

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`perpdesk: ${err.message}`);
      process.exit(2);
    }
    if (err instanceof RangeError && err.message.startsWith('--start')) {
      console.error(`perpdesk: ${err.message}`); // a data folder whose clock has run: a usage error
      process.exit(2);
    }
    throw err;
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const dataDir = opts.dataDir ?? defaultDataDir();
  // --replay: the folder's datasets are the market; the replay's own records stay in memory
  const r = opts.replay;
  const folder = r === undefined ? null : openFolderReplayData(dataDir);
  let service;
  try {
    service = await startService({
      host: opts.host,
      port: opts.port,
      dataDir,
      ...(r === undefined || folder === null
        ? {}
        : {
            replay: {
              options: {
                symbols: r.symbols,
                start: r.start,
                ...(r.until === undefined ? {} : { until: r.until }),
                ...(r.queueModel === undefined ? {} : { queueModel: r.queueModel }),
                ...(r.orderLatency === undefined ? {} : { orderLatency: r.orderLatency }),
                ...(r.dataLatency === undefined ? {} : { dataLatency: r.dataLatency }),
                ...(r.responseLatency === undefined ? {} : { responseLatency: r.responseLatency }),
              },
              data: folder.data,
              lockstep: r.lockstep,
              liveUrl: null,
              ...(r.balance === undefined ? {} : { balance: r.balance }),
            },
          }),
      seed: opts.seed,
      speed: opts.speed,
      accounts: opts.accounts,
      simulate: opts.simulate,
      simVolatility: opts.simVolatility,
      simIntensity: opts.simIntensity,
      simFast: opts.simFast,
      simStart: opts.simStart,
      onProgress: (line) => console.log(line),
      uiDir: process.env.PERPDESK_UI_DIR ?? builtUiDir(here),
      logger: true,
    });
  } catch (err) {
    folder?.close();
    if (err instanceof RangeError && r !== undefined) {
      // what the data cannot replay (no dataset, start outside the data, ...): a usage error
      console.error(`perpdesk: cannot replay: ${err.message}`);
      process.exit(2);
    }
    if (err instanceof RangeError && err.message.startsWith('--start')) {
      console.error(`perpdesk: ${err.message}`); // a data folder whose clock has run: a usage error
      process.exit(2);
    }
    throw err;
  }
  if (r !== undefined) {
    const s = service.venue.replay!.status();
    console.log(
      `perpdesk: replaying ${s.symbols.join(', ')} from ${new Date(s.start).toISOString()} to ${new Date(s.until).toISOString()}` +
        (r.lockstep ? ' in lockstep' : ''),
    );
  }
  console.log(`perpdesk is listening on ${service.url} (API docs: ${service.url}/docs)`);
  console.log(`Open the trading screen (one-time login link): ${service.loginUrl}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`perpdesk: ${signal}, closing`);
    service.close().then(
      () => {
        folder?.close();
        process.exit(0);
      },
      (err: unknown) => {
        console.error('perpdesk: error while closing', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error('perpdesk: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
