// Headless entry: the full service without a window, serving the web UI at '/'.
//
// The port: `npm run serve` listens where --port says (8787 by default), and a taken one is an
// error. `npm start` runs this entry when no window can open (scripts/start.mjs sets
// PERPDESK_AS_DESKTOP): the desktop app's rule then (docs/desktop.md, desktop/port-choice.ts):
// without --port, the port of the last launch (last-port.json in the data folder), else 8787,
// else a free one, said in a notice and remembered; an explicit --port as given. A taken port is
// seen before the venue opens (a first start builds its history for a minute or two), and a
// start that fails says why and the data folder, in one line, exit code 1.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, parseCli, USAGE } from './cli-args.ts';
import { readJsonFile, writeJsonFile } from './desktop/json-file.ts';
import {
  addressInUseError,
  choosePort,
  fallbackNotice,
  isAddressInUse,
  LAST_PORT_FILE,
  parseSavedPort,
  rememberPort,
  type PortChoice,
  type PortRequest,
} from './desktop/port-choice.ts';
import { isPortFree, isPortTaken } from './desktop/port-probe.ts';
import { builtUiDir, defaultDataDir } from './paths.ts';
import { readServiceFile } from './service-file.ts';
import { DataFolderInUseError } from './store/data-lock.ts';
import { openFolderReplayData, startService } from './service.ts';

const asDesktop = process.env.PERPDESK_AS_DESKTOP === '1';
/** The data folder, once known: a failed start names it. */
let dataFolder: string | null = null;

/** A start that failed: why and the data folder, one line, exit code 1. */
function failed(why: string): never {
  console.error(`perpdesk: failed to start${dataFolder === null ? '' : ` (data folder ${dataFolder})`}: ${why}`);
  process.exit(1);
}

/** Where to listen: the port asked for (checked free), or the desktop's choice (npm start). */
async function choosePortOf(
  o: { host: string; port: number; portGiven: boolean },
  dataDir: string,
): Promise<{ request: PortRequest; choice: PortChoice }> {
  if (asDesktop && !o.portGiven) {
    const saved = dataDir === ':memory:' ? null : parseSavedPort(readJsonFile(join(dataDir, LAST_PORT_FILE)));
    const request: PortRequest = { kind: 'preferred', saved };
    return { request, choice: await choosePort(request, (p) => isPortFree(o.host, p)) };
  }
  if (o.port !== 0 && (await isPortTaken(o.host, o.port))) failed(addressInUseError(o.host, o.port, asDesktop).message);
  return { request: { kind: 'explicit', port: o.port }, choice: { port: o.port, fellBack: false, busy: [] } };
}

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
  dataFolder = dataDir;
  const { request, choice: chosen } = await choosePortOf(opts, dataDir);
  let choice = chosen;
  // --replay: the folder's datasets are the market; the replay's own records stay in memory
  const r = opts.replay;
  const folder = r === undefined ? null : openFolderReplayData(dataDir);
  const start = (port: number) =>
    startService({
      host: opts.host,
      port,
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
  let service;
  try {
    try {
      service = await start(choice.port);
    } catch (err) {
      // taken between the check and the listen: the desktop's preferred port falls back
      if (!isAddressInUse(err)) throw err;
      if (request.kind === 'explicit') failed(addressInUseError(opts.host, choice.port, asDesktop).message);
      choice = { port: 0, fellBack: true, busy: [...choice.busy, choice.port] };
      service = await start(0);
    }
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
  if (choice.fellBack) console.log(`perpdesk: ${fallbackNotice(choice, service.url, 'the service')}`);
  if (dataDir !== ':memory:' && rememberPort(request, service.port)) {
    try {
      writeJsonFile(join(dataDir, LAST_PORT_FILE), { port: service.port });
    } catch (err) {
      console.error(`perpdesk: could not remember the port: ${err instanceof Error ? err.message : err}`);
    }
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
  // the folder's venue is running: say where, as a second desktop launch brings the first forward
  const running = err instanceof DataFolderInUseError && dataFolder !== null ? readServiceFile(dataFolder) : null;
  if (running !== null && running.pid === (err as DataFolderInUseError).pid)
    failed(
      `perpdesk is already running on this data folder (process ${running.pid}), at ${running.url}: ` +
        `open ${running.url} in a browser, or close it first to start another here (or use --data-dir)`,
    );
  failed(err instanceof Error ? err.message || err.name : String(err));
});
