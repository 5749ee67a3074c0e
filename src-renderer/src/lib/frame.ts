import { PerpdeskApiError } from '../../../src-shared/sdk/rest-client.ts';
import { reportBugs } from './service-failure.ts';

// Coalesces bursts of feed messages into at most one store write per animation frame, so a
// 100 ms depth feed and a busy trade feed never cost more than one render each per frame.
export function frameBatcher(flush: () => void): { schedule(): void; cancel(): void } {
  let handle = 0;
  // the browser's frame clock; a 16 ms timer where there is none (the feeds' unit tests run in Node)
  const g = globalThis as {
    requestAnimationFrame?: (fn: (t: number) => void) => number;
    cancelAnimationFrame?: (h: number) => void;
  };
  const raf =
    g.requestAnimationFrame?.bind(globalThis) ??
    ((fn: (t: number) => void) => setTimeout(() => fn(0), 16) as unknown as number);
  const caf = g.cancelAnimationFrame?.bind(globalThis) ?? ((h: number) => clearTimeout(h));
  return {
    schedule() {
      if (handle !== 0) return;
      handle = raf(() => {
        handle = 0;
        flush();
      });
    },
    cancel() {
      if (handle !== 0) caf(handle);
      handle = 0;
    },
  };
}

/**
 * Runs `task` now and then every `ms` (never two at once); errors go to `onError` (by default
 * the console, for a bug; a service failure shows elsewhere). Returns the stopper.
 */
export function poll(task: () => Promise<unknown>, ms: number, onError: (e: unknown) => void = reportBugs): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async (): Promise<void> => {
    if (stopped) return;
    try {
      await task();
    } catch (e) {
      onError(e);
    }
    if (!stopped) timer = setTimeout(() => void run(), ms);
  };
  void run();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** The message of anything thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The venue's refusal with its code, "(3026) The mark price …"; other failures as their message. */
export function refusalText(e: unknown): string {
  if (e instanceof PerpdeskApiError && e.code > 0) return `(${e.code}) ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
