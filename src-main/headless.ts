// Headless entry: the full service without a window, serving the web UI at '/'.
//
// The port: `npm run serve` listens where --port says (8787 by default), and a taken one is an
// error. `npm start` runs this entry when no window can open (scripts/start.mjs sets
// PERPDESK_AS_DESKTOP): the desktop app's rule then (docs/desktop.md, desktop/port-choice.ts):
// without --port, the port of the last launch (last-port.json in the data folder), else 8787,
// else a free one, said in a notice and remembered; an explicit --port as given. A taken port is
// seen before the venue opens (a first start builds its history for a minute or two), and a
// start that fails says why and the data folder, in one line, exit code 1.
//
// An error nobody caught (thrown from a timer or an event callback, a promise rejection nobody
// handles) is the desktop app's case too (process-errors.ts): it is said on stderr and in
// main.log under the data folder's logs/, and the service is closed (its store committed and
// checkpointed, within 5 s) before the process exits: 1 while starting, UNCAUGHT_EXIT_CODE (70)
// once it listened. Node's default would end the process at once, store left open.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliError, parseCli, USAGE } from './cli-args.ts';
import { DESKTOP_USAGE } from './desktop/desktop-args.ts';
import { readJsonFile, writeJsonFile } from './desktop/json-file.ts';
import {
  addressInUseError,
  choosePort,
  movedPortNotice,
  isAddressInUse,
  LAST_PORT_FILE,
  parseSavedPort,
  rememberPort,
  type PortChoice,
  type PortRequest,
} from './desktop/port-choice.ts';
import { isPortFree } from './desktop/port-probe.ts';
import { listenCheck } from './desktop/listen-check.ts';
import { builtUiDir, defaultDataDir, makeDataDir, userPath } from './paths.ts';
import { exitCodeAfter, QuitDuringStart, ServiceSlot } from './desktop/service-slot.ts';
import { ProcessErrors, UNCAUGHT_EXIT_CODE } from './process-errors.ts';
import { stopWhenOrphaned } from './orphan-watch.ts';
import { alreadyRunningMessage, readServiceFile } from './service-file.ts';
import { DataFolderInUseError } from './store/data-lock.ts';
import { localUrl, openFolderReplayData, startService, type ServiceHandle } from './service.ts';
import { sweepResults } from './sweep/reader.ts';
import { sayReplayEnd } from './start-notices.ts';

const asDesktop = process.env.PERPDESK_AS_DESKTOP === '1';
/** The data folder, once known: a failed start names it. */
let dataFolder: string | null = null;
/** The datasets a replay reads (--replay), closed after the service. */
let replayFolder: { close(): void } | null = null;
/** The service listens (an uncaught error is no longer a failed start). */
let listening = false;

const slot = new ServiceSlot<ServiceHandle>({
  onCloseError: (err) => processErrors.log('closing the service failed', err),
});
const processErrors = new ProcessErrors({
  slot,
  logDir: () => (dataFolder === null || dataFolder === ':memory:' ? null : join(dataFolder, 'logs')),
  exit: (code) => {
    try {
      replayFolder?.close();
    } catch (err) {
      processErrors.log('closing the replay datasets failed', err);
    }
    process.exit(code);
  },
});

/**
 * An error nobody caught: said on stderr (one line, then the stack) and in main.log, then the
 * service is closed and the process exits, 1 while starting, UNCAUGHT_EXIT_CODE once listening.
 */
function onProcessError(what: string, err: unknown): void {
  if (processErrors.closing) {
    processErrors.log(`${what} (while closing)`, err);
    return;
  }
  const reason = err instanceof Error ? err.message || err.name : String(err);
  const where = dataFolder === null ? '' : ` (data folder ${dataFolder})`;
  const code = listening ? UNCAUGHT_EXIT_CODE : 1;
  console.error(
    listening
      ? `perpdesk: ${what}${where}: ${reason}; closing the service, exit code ${code}`
      : `perpdesk: failed to start${where}: ${what}: ${reason}`,
  );
  const file = processErrors.log(what, err);
  if (file !== null) console.error(`perpdesk: the error is also in ${file}`);
  processErrors.closeAndExit(false, () => code);
}
processErrors.install(onProcessError);

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
  // said now, not after the first start has built its history (listen-check.ts)
  const desktopPick = asDesktop && !o.portGiven;
  const problem = await listenCheck({ host: o.host, port: desktopPick ? null : o.port, dataDir, picksOne: asDesktop });
  if (problem !== null) failed(problem.message);
  if (desktopPick) {
    const saved = dataDir === ':memory:' ? null : parseSavedPort(readJsonFile(join(dataDir, LAST_PORT_FILE)));
    const request: PortRequest = { kind: 'preferred', saved };
    return { request, choice: await choosePort(request, (p) => isPortFree(o.host, p)) };
  }
  return { request: { kind: 'explicit', port: o.port }, choice: { port: o.port, fellBack: false, busy: [] } };
}

async function main(): Promise<void> {
  let opts;
  try {
    opts = parseCli(process.argv.slice(2));
  } catch (err) {
    if (err instanceof CliError) {
      console.error(`perpdesk: ${asDesktop ? err.message.replace(USAGE, DESKTOP_USAGE) : err.message}`);
      process.exit(2);
    }
    if (err instanceof RangeError && err.message.startsWith('--start')) {
      console.error(`perpdesk: ${err.message}`); // a data folder whose clock has run: a usage error
      process.exit(2);
    }
    throw err;
  }
  if (opts.help) {
    // npm start's fallback: the desktop app's text (its command, its port rule), as with a window
    console.log(asDesktop ? DESKTOP_USAGE : USAGE);
    return;
  }
  const here = dirname(fileURLToPath(import.meta.url));
  // relative to the folder the user ran the command from (npm runs it in the package's)
  const dataDir = opts.dataDir === undefined ? defaultDataDir() : userPath(opts.dataDir);
  dataFolder = dataDir;
  const { request, choice: chosen } = await choosePortOf(opts, dataDir);
  // a folder this user cannot create (under a file, a read-only place, /proc): one line, exit 2;
  // after the port's check, which makes nothing
  if (dataDir !== ':memory:') {
    try {
      makeDataDir(dataDir); // a read-only one too
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      console.error(
        `perpdesk: cannot use the data folder ${dataDir === '' ? "''" : dataDir} (--data-dir): ${why}; it must be a folder you can write`,
      );
      process.exit(2);
    }
  }
  let choice = chosen;
  // --replay: the folder's datasets are the market; the replay's own records stay in memory
  const r = opts.replay;
  const folder = r === undefined ? null : openFolderReplayData(dataDir);
  replayFolder = folder;
  const start = (port: number) =>
    slot.start((signal) =>
      startService({
        signal,
        host: opts.host,
        port,
        dataDir,
        sweeps: sweepResults,
        ...(r === undefined || folder === null
          ? {}
          : {
              replay: {
                options: {
                  symbols: r.symbols,
                  start: r.start,
                  ...(r.until === undefined ? {} : { until: r.until }),
                  ...(r.datasets === undefined ? {} : { datasets: r.datasets }),
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
      }),
    );
  let service: ServiceHandle;
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
    // an uncaught error while starting: onProcessError closes what started and exits
    if (err instanceof QuitDuringStart) return;
    replayFolder = null;
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
    // what each pair reads (the venue's pick, or --replay-datasets): `BTCUSDT: klines spot 15m #2`
    const reads = s.symbols.map(
      (sym) =>
        `${sym}: ` +
        (s.datasets[sym] ?? [])
          .map((d) => `${d.role} ${d.market}${d.interval ? ` ${d.interval}` : ''} #${d.id}`)
          .join(', '),
    );
    console.log(`perpdesk: reading ${reads.join('; ')}`);
  }
  const moved = movedPortNotice(choice, service.url, 'the service');
  if (moved !== null) console.log(`perpdesk: ${moved}`);
  if (dataDir !== ':memory:' && rememberPort(request, service.port)) {
    try {
      writeJsonFile(join(dataDir, LAST_PORT_FILE), { port: service.port });
    } catch (err) {
      console.error(`perpdesk: could not remember the port: ${err instanceof Error ? err.message : err}`);
    }
  }
  console.log(`perpdesk is listening on ${service.url} (API docs: ${service.url}/docs)`);
  console.log(`Open the trading screen (one-time login link): ${service.loginUrl}`);
  listening = true;
  if (service.venue.replay !== null)
    sayReplayEnd(service.venue.replay, localUrl(service.host, service.port), console.log);
}

/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP close the service, also while it starts: a first start's history
 * build stops after the pair under way (ServiceSlot aborts the start) and the folder is closed as
 * a normal close leaves it. Installed before anything starts: before, they came once the service
 * listened, and a Ctrl-C during the build ended the process at once (exit 130, the lock and the
 * WAL left, a pair's history half written).
 */
function stop(signal: string): void {
  if (processErrors.closing) return;
  console.log(`perpdesk: ${signal}, closing${listening ? '' : ' (the start is stopped)'}`);
  // 0 once closed; 1 when the close failed (logged) or took longer than 5 s
  processErrors.closeAndExit(false, (result) => exitCodeAfter(result, false));
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
// the terminal it runs in closed (its window, an ssh session that dropped): the kernel hangs up
// the foreground processes. Before, Node's default ended the process at once (exit 129: the lock,
// the WAL and service.json left, the next start saying the run did not stop cleanly). Node resets
// an inherited SIG_IGN at start, so `nohup` never kept it running: a service that must outlive
// its terminal runs under setsid, tmux or a service manager.
process.on('SIGHUP', () => stop('SIGHUP'));
// `npm run serve` / `npm start` killed: npm's shell goes, the signal does not reach this process
stopWhenOrphaned('perpdesk');

main().catch((err: unknown) => {
  if (err instanceof QuitDuringStart) return; // an uncaught error while starting: onProcessError exits
  // the folder's venue is running: say where, as a second desktop launch brings the first forward
  const running = err instanceof DataFolderInUseError && dataFolder !== null ? readServiceFile(dataFolder) : null;
  if (running !== null && running.pid === (err as DataFolderInUseError).pid) failed(alreadyRunningMessage(running));
  failed(err instanceof Error ? err.message || err.name : String(err));
});
