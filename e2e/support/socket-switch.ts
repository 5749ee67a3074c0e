// Cuts and restores the page's WebSockets from inside the page (a stand-in for a stopped
// service while the shared one keeps running).
import type { Page } from 'playwright/test';

/** A switch for the page's WebSockets; install() must run before the page loads. */
export class SocketSwitch {
  readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }
  async install(): Promise<void> {
    await this.page.addInitScript(() => {
      const w = globalThis as unknown as {
        WebSocket: new (
          url: string | URL,
          p?: string | string[],
        ) => { close(): void; addEventListener(t: string, f: () => void): void };
        __wsSwitch: unknown;
      };
      const Native = w.WebSocket;
      const live = new Set<{ close(): void }>();
      const sw = { blocked: false };
      w.__wsSwitch = {
        cut() {
          sw.blocked = true;
          for (const s of live) s.close();
        },
        restore() {
          sw.blocked = false;
        },
      };
      w.WebSocket = class extends (Native as unknown as new (url: string | URL, p?: string | string[]) => object) {
        constructor(url: string | URL, protocols?: string | string[]) {
          // a refused address stands for a stopped service: the socket never opens
          super(sw.blocked ? 'ws://127.0.0.1:1/ws' : url, protocols);
          if (!sw.blocked) {
            live.add(this as unknown as { close(): void });
            (this as unknown as { addEventListener(t: string, f: () => void): void }).addEventListener('close', () =>
              live.delete(this as unknown as { close(): void }),
            );
          }
        }
      } as unknown as typeof w.WebSocket;
    });
  }
  async cut(): Promise<void> {
    await this.page.evaluate(() => (globalThis as unknown as { __wsSwitch: { cut(): void } }).__wsSwitch.cut());
  }
  async restore(): Promise<void> {
    await this.page.evaluate(() => (globalThis as unknown as { __wsSwitch: { restore(): void } }).__wsSwitch.restore());
  }
}
