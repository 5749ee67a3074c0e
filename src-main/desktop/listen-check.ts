// Whether the service can listen where it is asked to, checked before the venue opens: a first
// start builds its simulated history first (seconds to a minute or two), and a listen that then
// fails has had the user wait for nothing, its folder filled, to read a raw `listen EADDRNOTAVAIL`.
// The headless service (headless.ts) and the desktop app (electron-main.ts) both check here.
// Before, the desktop checked nothing: an explicit --port that was taken, a --host not of this
// machine (its preferred ports then all looked busy, so it went on to a free port) or a name that
// resolves to nothing failed only after the history was built.
import { alreadyRunningMessage, readServiceFile } from '../service-file.ts';
import { addressInUseError, cannotListenError } from './port-choice.ts';
import { listenProblem } from './port-probe.ts';

export interface ListenCheck {
  host: string;
  /** The port as given (--port), or null when the app picks it (its preferred ports, else a free one). */
  port: number | null;
  /** The data folder: its own service on the port is named, not the port. */
  dataDir: string;
  /** Without --port a free port would be picked (the desktop app, npm start): said in the error. */
  picksOne: boolean;
}

/** Why the service cannot listen as asked (the error to fail the start with), or null. */
export async function listenCheck(
  c: ListenCheck,
  probe: (host: string, port: number) => Promise<NodeJS.ErrnoException | null> = listenProblem,
): Promise<Error | null> {
  // an address not of this machine, a name that resolves to nothing: the host alone
  const hostProblem = await probe(c.host, 0);
  if (hostProblem !== null) return cannotListenError(c.host, null, hostProblem);
  if (c.port === null || c.port === 0) return null;
  const problem = await probe(c.host, c.port);
  if (problem === null) return null;
  if (problem.code === 'EADDRINUSE') {
    // the same command run again: the folder's own service holds the port. Said as a second start
    // on the folder is, not "choose another --port" (a start there would be refused as the folder's)
    const running = c.dataDir === ':memory:' ? null : readServiceFile(c.dataDir);
    if (running !== null && new URL(running.url).port === String(c.port))
      return new Error(alreadyRunningMessage(running));
    return addressInUseError(c.host, c.port, c.picksOne);
  }
  return cannotListenError(c.host, c.port, problem);
}
