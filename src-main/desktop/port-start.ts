// The desktop's start on its port (docs/desktop.md, Port and data folder): where it can listen is
// checked first (listen-check.ts: a --host not of this machine, a taken explicit --port), before
// the venue opens and a first start builds its history; then the port is chosen (port-choice.ts:
// the last launch's, else 8787, else a free one) and the service started on it, a port taken
// between the probe and the listen falling back to a free one (an explicit one is an error); the
// port got is remembered in last-port.json unless --port was given. Electron-free: electron-main.ts
// hands it the service's start, so a test runs the same order with a fake or the real service.
// The window opens (onChecked) once the service has also taken the data folder and checked its
// database (its onOpened, before a first start's history): a folder in use by another perpdesk, a
// database from a newer version, show their error box alone, as a taken --port does. Before, the
// window opened once the port was checked, and those two failed with a start page on screen.
import { join } from 'node:path';
import { portRequestOf } from './desktop-args.ts';
import { readJsonFile, writeJsonFile } from './json-file.ts';
import { listenCheck, type ListenCheck } from './listen-check.ts';
import {
  addressInUseError,
  choosePort,
  isAddressInUse,
  LAST_PORT_FILE,
  parseSavedPort,
  rememberPort,
  type PortChoice,
  type PortRequest,
} from './port-choice.ts';
import { isPortFree } from './port-probe.ts';

interface PortStart<S extends { port: number }> {
  host: string;
  /** --port as given (explicit), or the app picks it (preferred: the saved port, 8787, a free one). */
  port: { kind: 'explicit'; port: number } | { kind: 'preferred' };
  /** The venue's folder (or ':memory:': nothing remembered). */
  dataDir: string;
  /** Where last-port.json lives (Electron's userData). */
  userData: string;
  /**
   * Starts the service on `port` (0: any free one); it calls `onOpened` once the data folder is
   * its own and its database one it can open (startService's onOpened), before the slow part.
   */
  start(port: number, onOpened: () => void): Promise<S>;
  /** Remembering the port failed (the start goes on). */
  onRememberError(err: unknown): void;
  /**
   * Where it can listen is checked, the service has taken the data folder and checked its database
   * (the start's onOpened), and the start goes on: the desktop opens its window (the start page)
   * here, so a start refused at once shows its error box alone, no start page flashed before it.
   * Called once, also when the start falls back to a free port (a second start of the service).
   */
  onChecked?: () => void;
  /** Probes, replaced in tests. */
  isFree?: (host: string, port: number) => Promise<boolean>;
  check?: (c: ListenCheck) => Promise<Error | null>;
}

export async function startOnChosenPort<S extends { port: number }>(
  o: PortStart<S>,
): Promise<{ service: S; choice: PortChoice }> {
  const problem = await (o.check ?? listenCheck)({
    host: o.host,
    port: o.port.kind === 'explicit' ? o.port.port : null,
    dataDir: o.dataDir,
    picksOne: true,
  });
  if (problem !== null) throw problem;
  let checked = false;
  const opened = (): void => {
    if (checked) return;
    checked = true;
    o.onChecked?.();
  };
  const isFree = o.isFree ?? isPortFree;
  const portFile = join(o.userData, LAST_PORT_FILE);
  const request: PortRequest = portRequestOf(o, parseSavedPort(readJsonFile(portFile)));
  let choice = await choosePort(request, (p) => isFree(o.host, p));
  let service: S;
  try {
    service = await o.start(choice.port, opened);
  } catch (err) {
    if (!isAddressInUse(err)) throw err;
    // taken between the probe and the listen: a preferred port falls back, an explicit one is an error
    if (request.kind === 'explicit') throw addressInUseError(o.host, choice.port);
    choice = { port: 0, fellBack: true, busy: [...choice.busy, choice.port] };
    service = await o.start(0, opened);
  }
  opened(); // a start that did not say (it has opened all the same)
  if (o.dataDir !== ':memory:' && rememberPort(request, service.port)) {
    try {
      writeJsonFile(portFile, { port: service.port });
    } catch (err) {
      o.onRememberError(err);
    }
  }
  return { service, choice };
}
