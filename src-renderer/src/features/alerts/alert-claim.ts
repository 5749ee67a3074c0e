// One tab of a venue's address fires a price alert, though two see its level before either's
// storage write reaches the other (each would fire it and give a desktop notification): before it
// fires, a tab claims the alert from the browser's lock manager (navigator.locks, one for the
// tabs of an origin, which grants a lock to one tab at a time). The first tab to ask gets the
// alert's lock and keeps it while it lives, so no other tab is ever granted it: that tab fires
// the alert with its notification; another that asks is refused, and fires it with a toast only
// (alerts-feed.ts). No lock manager (a page that is not a secure context: an address other than
// localhost over plain http): no claim, each tab that sees the level first fires it, as before.

/** Locks as navigator.locks grants them (the part used). */
export interface Locks {
  request(
    name: string,
    options: { ifAvailable: true },
    callback: (lock: unknown) => Promise<unknown> | undefined,
  ): Promise<unknown>;
}

/** Whether this tab is the one to fire alert `id` (resolves true once, in one tab only). */
export type AlertClaim = (id: string) => Promise<boolean>;

/** The claim on `locks` (navigator.locks), or none where the page has no lock manager. */
export function lockClaim(locks: Locks | undefined): AlertClaim | undefined {
  if (locks === undefined) return undefined;
  return (id) =>
    new Promise<boolean>((resolve, reject) => {
      locks
        .request(`perpdesk.alert-fired:${id}`, { ifAvailable: true }, (lock) => {
          resolve(lock !== null);
          // held while the tab lives: a tab that asks later is refused it too
          return lock === null ? undefined : new Promise<never>(() => {});
        })
        .catch(reject);
    });
}
