// Desktop notifications in headless Chromium, which never leaves the window's focus and whose
// headless shell answers "denied" whatever was granted: the page is told it is in the background
// with the permission given, and the notifications it makes are recorded as it makes them (the
// browser's own Notification still made, so a wrong argument still throws).
import type { Page } from 'playwright/test';

/** Before the page loads: the window away, notifications allowed and recorded. */
export async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript({
    content: `
      const Real = window.Notification;
      window.notes = [];
      window.Notification = class extends Real {
        static get permission() {
          return 'granted';
        }
        constructor(title, options) {
          super(title, options);
          window.notes.push([title, options && options.body, options && options.tag]);
        }
      };
      document.hasFocus = () => false;
    `,
  });
}

/** The notifications made so far: title, body, tag. */
export type Note = [title: string, body: string | undefined, tag: string | undefined];

/** The page's notifications (an expression for page.evaluate, to read them with other state at one instant). */
export const NOTES = (): Note[] => (globalThis as unknown as { notes: Note[] }).notes;
