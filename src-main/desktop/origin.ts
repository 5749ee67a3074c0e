// Same-origin test for the window's own service. Origins are compared whole, after the URL
// parser has normalised them: a string prefix is not an origin (`http://127.0.0.1:5123` is a
// prefix of `http://127.0.0.1:51234/` and of `http://127.0.0.1:5123@evil.example/`). Anything
// that does not parse, and every opaque origin (data:, file:, about:blank: `origin` "null"), is
// foreign.

/** The serialised origin of `url` (scheme://host[:port]), or null when it has none. */
export function originOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  return u.origin === 'null' ? null : u.origin;
}

/** True when `url` belongs to `serviceOrigin` (itself given as an origin or any URL on it). */
export function isOwnOrigin(url: string, serviceOrigin: string | null): boolean {
  if (serviceOrigin === null) return false;
  const own = originOf(serviceOrigin);
  const other = originOf(url);
  return own !== null && other !== null && own === other;
}
