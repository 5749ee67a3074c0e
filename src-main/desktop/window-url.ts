// The address the window loads the service from. The service may listen on a wildcard
// (--host 0.0.0.0 or ::), which is no address to browse to; the window then uses loopback
// 127.0.0.1, which a wildcard listener accepts and the page's content security policy allows
// for its WebSocket (ws://127.0.0.1:*). A specific host is used as given.

export function windowBaseUrl(host: string, port: number): string {
  const wildcard = host === '' || host === '0.0.0.0' || host === '::' || host === '[::]';
  const h = wildcard ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}
