// Which port the desktop's service listens on. A stable address matters: the screen's
// localStorage (chosen pair, interval, layout) belongs to the origin http://127.0.0.1:PORT, and
// bots are configured with it. So the desktop listens where it listened last time (last-port.json
// in the data folder), else on 8787 (the headless default and the port the docs' examples
// use); only when those are taken does it fall back to a free port, and it says so. An explicit
// --port is taken as given: no fallback (a busy port is an error the user must see), and not
// remembered, and --port 0 (any free port) is never remembered either.

export const DEFAULT_DESKTOP_PORT = 8787;
export const LAST_PORT_FILE = 'last-port.json';

export type PortRequest = { kind: 'explicit'; port: number } | { kind: 'preferred'; saved: number | null };

export interface PortChoice {
  /** The port to listen on; 0 asks the OS for a free one. */
  port: number;
  /** The preferred ports were all busy: the user must be told the new address. */
  fellBack: boolean;
  /** The ports that were tried and found busy, in order. */
  busy: number[];
}

function validPort(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 65535;
}

/** The port stored in last-port.json (`{"port": N}`), or null when absent or unusable. */
export function parseSavedPort(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = (raw as { port?: unknown }).port;
  return validPort(p) ? p : null;
}

/** The ports to try, best first. */
export function portCandidates(req: PortRequest): number[] {
  if (req.kind === 'explicit') return [req.port];
  return req.saved !== null && req.saved !== DEFAULT_DESKTOP_PORT
    ? [req.saved, DEFAULT_DESKTOP_PORT]
    : [DEFAULT_DESKTOP_PORT];
}

/** Tries the candidates in order with `isFree`; an explicit port is returned untested. */
export async function choosePort(req: PortRequest, isFree: (port: number) => Promise<boolean>): Promise<PortChoice> {
  if (req.kind === 'explicit') return { port: req.port, fellBack: false, busy: [] };
  const busy: number[] = [];
  for (const port of portCandidates(req)) {
    if (await isFree(port)) return { port, fellBack: false, busy };
    busy.push(port);
  }
  return { port: 0, fellBack: true, busy };
}

/**
 * What to say before the URL when a preferred port was busy, or null: also when the service moved
 * from the last launch's port to 8787, which the notice that named the last one had told the user
 * to point bots at ("the next launch tries this port first"). Before, only a fall back to a free
 * port was said, and a move to 8787 was silent.
 */
export function movedPortNotice(choice: PortChoice, baseUrl: string, who?: string): string | null {
  return choice.busy.length > 0 ? fallbackNotice(choice, baseUrl, who) : null;
}

/** Whether the port the service got should be remembered for the next launch. */
export function rememberPort(req: PortRequest, actualPort: number): boolean {
  return req.kind === 'preferred' && validPort(actualPort);
}

/** The notice shown when the preferred ports were busy; `who` listens (npm start's headless fallback: 'the service'). */
export function fallbackNotice(choice: PortChoice, baseUrl: string, who = "this window's venue"): string {
  return (
    `Port ${choice.busy.join(' and ')} ${choice.busy.length > 1 ? 'are' : 'is'} in use (by another program or another perpdesk), ` +
    `so ${who} listens on ${baseUrl} instead. Point bots there; the next launch tries this port first. ` +
    `To choose the port yourself, start with --port N.`
  );
}

/** The listen failed because the port is taken (EADDRINUSE, from Node's net or Fastify). */
export function isAddressInUse(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'EADDRINUSE';
}

/**
 * The error shown when an explicit --port is taken; `picksOne`: without --port a free one would be
 * picked (the desktop app, npm start), else (npm run serve) the port is always as given.
 */
export function addressInUseError(host: string, port: number, picksOne = true): Error {
  return new Error(
    `Port ${port} on ${host} is in use (by another program or another perpdesk). ` +
      (picksOne
        ? `Choose another --port, or leave --port out and perpdesk picks one.`
        : `Choose another with --port N (--port 0 picks a free one).`),
  );
}

/**
 * The error shown when the service cannot listen on --host / --port for another reason than a
 * taken port (`err` from listenProblem), said before anything starts; `port` null: the host alone.
 */
export function cannotListenError(host: string, port: number | null, err: NodeJS.ErrnoException): Error {
  const why =
    err.code === 'EADDRNOTAVAIL'
      ? `${host} is not an address of this machine (--host takes one of its interfaces, 127.0.0.1 by default, or 0.0.0.0 for all)`
      : err.code === 'EACCES'
        ? `port ${port} needs privileges this user does not have (ports under 1024); choose another with --port N`
        : err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
          ? `${host} names no address (--host takes an address or a name of this machine)`
          : err.message;
  return new Error(`cannot listen on ${port === null ? host : `${host}:${port}`}: ${why}`);
}
