import { describe, expect, it } from 'vitest';
import { bootstrapFor } from '../../src-main/desktop/bootstrap.ts';
import { isOwnOrigin, originOf } from '../../src-main/desktop/origin.ts';
import { permissionAllowed } from '../../src-main/desktop/permissions.ts';
import {
  externalUrlAllowed,
  navigationAction,
  redirectAction,
  windowOpenAction,
} from '../../src-main/desktop/url-policy.ts';
import { windowBaseUrl } from '../../src-main/desktop/window-url.ts';

const OWN = 'http://127.0.0.1:5123';

describe('isOwnOrigin', () => {
  it('accepts pages of the service itself', () => {
    expect(isOwnOrigin('http://127.0.0.1:5123/', OWN)).toBe(true);
    expect(isOwnOrigin('http://127.0.0.1:5123/docs#/x?y=1', OWN)).toBe(true);
    expect(isOwnOrigin('http://127.0.0.1:5123', 'http://127.0.0.1:5123/')).toBe(true);
  });

  it.each([
    ['a longer port with the same prefix', 'http://127.0.0.1:51234/'],
    ['userinfo that makes the prefix a user name', 'http://127.0.0.1:5123@evil.example/'],
    ['another port', 'http://127.0.0.1:5124/'],
    ['another host name for loopback', 'http://localhost:5123/'],
    ['https on the same host and port', 'https://127.0.0.1:5123/'],
    ['a subdomain trick', 'http://127.0.0.1.evil.example:5123/'],
    ['a file URL', 'file:///etc/passwd'],
    ['an opaque data URL', 'data:text/html,<p>hi'],
    ['about:blank', 'about:blank'],
    ['garbage', 'not a url'],
    ['the empty string', ''],
  ])('refuses %s', (_what, url) => {
    expect(isOwnOrigin(url, OWN)).toBe(false);
  });

  it('refuses everything while there is no service', () => {
    expect(isOwnOrigin('http://127.0.0.1:5123/', null)).toBe(false);
  });

  it('gives opaque origins no origin at all', () => {
    expect(originOf('data:text/plain,x')).toBeNull();
    expect(originOf('http://127.0.0.1:80/x')).toBe('http://127.0.0.1');
  });
});

describe('URL scheme policy', () => {
  it('opens only web and mail links outside', () => {
    expect(externalUrlAllowed('https://example.com/a')).toBe(true);
    expect(externalUrlAllowed('http://example.com')).toBe(true);
    expect(externalUrlAllowed('mailto:someone@example.com')).toBe(true);
    for (const u of [
      'file:///C:/Windows/System32/calc.exe',
      'smb://server/share',
      'ms-msdt:/id PCWDiagnostic',
      'javascript:alert(1)',
      'vscode://x',
      'ftp://example.com/',
      'nonsense',
    ]) {
      expect(externalUrlAllowed(u), u).toBe(false);
    }
  });

  it('keeps the main frame on the service, sends web links out, blocks the rest', () => {
    expect(navigationAction(`${OWN}/`, OWN, true)).toBe('allow');
    expect(navigationAction('https://example.com/', OWN, true)).toBe('open-external');
    expect(navigationAction('http://127.0.0.1:5123@evil.example/', OWN, true)).toBe('open-external');
    expect(navigationAction('file:///etc/passwd', OWN, true)).toBe('block');
  });

  it('lets the main frame go to a replay the service hosts, and nothing else on loopback', () => {
    const replay = 'http://127.0.0.1:40001';
    expect(navigationAction(`${replay}/#token=abc`, OWN, true, [replay])).toBe('allow');
    expect(navigationAction(`${replay}/`, OWN, false, [replay])).toBe('block');
    expect(navigationAction('http://127.0.0.1:40002/', OWN, true, [replay])).toBe('open-external');
    expect(redirectAction(`${replay}/x`, OWN, [replay])).toBe('allow');
    expect(redirectAction('http://127.0.0.1:40002/x', OWN, [replay])).toBe('block');
    expect(navigationAction('ms-msdt:/id', OWN, true)).toBe('block');
  });

  it('never opens anything outside for a subframe', () => {
    expect(navigationAction(`${OWN}/frame`, OWN, false)).toBe('allow');
    expect(navigationAction('https://example.com/', OWN, false)).toBe('block');
  });

  it('lets a redirect land only on the service', () => {
    expect(redirectAction(`${OWN}/index.html`, OWN)).toBe('allow');
    expect(redirectAction('https://example.com/', OWN)).toBe('block');
    expect(redirectAction('http://127.0.0.1:51234/', OWN)).toBe('block');
  });

  it('turns every window.open into the system browser or nothing', () => {
    expect(windowOpenAction(`${OWN}/docs`)).toBe('open-external');
    expect(windowOpenAction('file:///etc/passwd')).toBe('block');
    expect(windowOpenAction('about:blank')).toBe('block');
  });
});

describe('permissions', () => {
  it('grants only a clipboard write and notifications, only to the service in the main frame', () => {
    for (const permission of ['clipboard-sanitized-write', 'notifications']) {
      const q = { permission, requester: `${OWN}/`, isMainFrame: true };
      expect(permissionAllowed(q, OWN), permission).toBe(true);
      expect(permissionAllowed({ ...q, isMainFrame: false }, OWN), permission).toBe(false);
      expect(permissionAllowed({ ...q, requester: 'http://127.0.0.1:51234/' }, OWN), permission).toBe(false);
      expect(permissionAllowed(q, null), permission).toBe(false);
    }
    const q = { permission: 'clipboard-sanitized-write', requester: `${OWN}/`, isMainFrame: true };
    for (const p of [
      'media',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'usb',
      'hid',
      'serial',
      'fullscreen',
      'unknown',
    ]) {
      expect(permissionAllowed({ ...q, permission: p }, OWN), p).toBe(false);
    }
  });

  it('grants the same to the replays the service hosts (the window moves there), to no other page', () => {
    const replay = 'http://127.0.0.1:51234';
    for (const permission of ['clipboard-sanitized-write', 'notifications']) {
      const q = { permission, requester: `${replay}/#replay`, isMainFrame: true };
      expect(permissionAllowed(q, OWN, [replay]), permission).toBe(true);
      expect(permissionAllowed({ ...q, requester: replay }, OWN, [`${replay}/`]), permission).toBe(true);
      expect(permissionAllowed({ ...q, isMainFrame: false }, OWN, [replay]), permission).toBe(false);
      // a replay closed (no longer listed), another port, a prefix-alike origin: refused
      expect(permissionAllowed(q, OWN, []), permission).toBe(false);
      expect(permissionAllowed(q, OWN, ['http://127.0.0.1:5123']), permission).toBe(false);
      expect(permissionAllowed({ ...q, requester: 'http://127.0.0.1:5123@evil.example/' }, OWN, [replay])).toBe(false);
      expect(permissionAllowed(q, null, [replay]), permission).toBe(false);
    }
    expect(permissionAllowed({ permission: 'media', requester: replay, isMainFrame: true }, OWN, [replay])).toBe(false);
  });
});

describe('bootstrapFor', () => {
  let reads = 0;
  const creds = { apiKey: 'local_a', apiSecret: 's1' };
  const src = (c: { apiKey: string; apiSecret: string } | null = creds) => ({
    baseUrl: OWN,
    readCredentials: () => {
      reads++;
      return c ?? undefined;
    },
  });

  it('answers the own window main frame with the current credentials', () => {
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, src())).toEqual({
      baseUrl: OWN,
      ...creds,
    });
  });

  it('reads the credentials afresh at every request (a regenerated key reaches the next load)', () => {
    let current = { apiKey: 'local_old', apiSecret: 'old' };
    const s = { baseUrl: OWN, readCredentials: () => current };
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, s)?.apiKey).toBe('local_old');
    current = { apiKey: 'local_new', apiSecret: 'new' };
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, s)?.apiKey).toBe('local_new');
  });

  it('refuses subframes, other windows, other origins, and does not even read the account for them', () => {
    reads = 0;
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: false }, src())).toBeNull();
    expect(bootstrapFor({ frameUrl: 'http://127.0.0.1:51234/', fromOwnWindowMainFrame: true }, src())).toBeNull();
    expect(
      bootstrapFor({ frameUrl: 'http://127.0.0.1:5123@evil.example/', fromOwnWindowMainFrame: true }, src()),
    ).toBeNull();
    expect(reads).toBe(0);
  });

  it('answers null without a service, without an account, or when the venue throws', () => {
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, { ...src(), baseUrl: null })).toBeNull();
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, src(null))).toBeNull();
    const closed = {
      baseUrl: OWN,
      readCredentials: () => {
        throw new Error('database is closed');
      },
    };
    expect(bootstrapFor({ frameUrl: `${OWN}/`, fromOwnWindowMainFrame: true }, closed)).toBeNull();
  });
});

describe('windowBaseUrl', () => {
  it('browses a wildcard listener through loopback and keeps a specific host', () => {
    expect(windowBaseUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
    expect(windowBaseUrl('0.0.0.0', 8787)).toBe('http://127.0.0.1:8787');
    expect(windowBaseUrl('::', 9000)).toBe('http://127.0.0.1:9000');
    expect(windowBaseUrl('::1', 9000)).toBe('http://[::1]:9000');
    expect(windowBaseUrl('192.168.1.5', 9000)).toBe('http://192.168.1.5:9000');
  });
});
