// The --queue URL of `npm run sweep` and `npm run sweep:worker`: read as ioredis options, and
// Redis reached once before anything starts. Kept apart from queue.ts so that the worker CLI's
// supervisor checks Redis without loading BullMQ.
import IORedis, { type RedisOptions } from 'ioredis';
import { QueueError } from './queue-error.ts';

/** Whether a command's error is a failed SELECT (a database this Redis does not have). */
const failedSelect = (err: Error): boolean =>
  (err as Error & { command?: { name?: string } }).command?.name === 'select';

/**
 * The --queue URL as lines and errors show it: its password, if any, as `***`
 * (`redis://default:***@10.0.0.5:6379`), so that a worker's log (a Deployment's, collected) or a
 * refusal does not carry it. Commands to run again (`--resume ... --queue URL`) keep the URL whole.
 */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password === '') return url;
    u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

/**
 * `redis://[USER:PASSWORD@]HOST:PORT[/DB]` (or rediss:// for TLS) as ioredis options. A
 * connection whose SELECT of DB fails is dropped and made again (as for a Redis away), never used:
 * ioredis would otherwise go on with its commands on database 0, another queue's.
 */
export function redisOptions(url: string): RedisOptions {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new QueueError(`--queue wants redis://HOST:PORT, got '${shownUrl(url)}'`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new QueueError(`--queue wants redis://HOST:PORT, got '${shownUrl(url)}'`);
  const db = u.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,2}$/.test(db))
    throw new QueueError(`--queue: the database after the port must be a number, got '${db}'`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 6379 : Number(u.port),
    ...(db === '' ? {} : { db: Number(db) }),
    ...(u.username === '' ? {} : { username: decodeURIComponent(u.username) }),
    ...(u.password === '' ? {} : { password: decodeURIComponent(u.password) }),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    reconnectOnError: failedSelect,
  };
}

/**
 * Connects once, pings and selects the URL's database, failing fast: an unreachable Redis, or one
 * without that database, is a clear error before anything starts.
 */
async function probe(url: string, opts: RedisOptions): Promise<void> {
  const { db, ...rest } = opts;
  const r = new IORedis({
    ...rest,
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // the socket's own error (ECONNREFUSED, ENOTFOUND...) says more than connect()'s rejection
  let cause: Error | null = null;
  r.on('error', (err: Error) => (cause ??= err));
  try {
    await r.connect();
    await r.ping();
  } catch (err) {
    const e = cause ?? (err instanceof Error ? err : new Error(String(err)));
    r.disconnect();
    throw new QueueError(`cannot reach Redis at ${shownUrl(url)}: ${e.message || e.name}`);
  }
  try {
    // explicitly, not as ioredis's handshake, whose failure leaves the connection on database 0
    if (db !== undefined) await r.select(db);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new QueueError(`--queue ${shownUrl(url)}: Redis has no database ${db} (${why})`);
  } finally {
    r.disconnect();
  }
}

/**
 * The queue's Redis, reached once: its options, or a QueueError (a usage error of the CLI, one
 * line, exit 2) for a malformed URL or a Redis that does not answer.
 */
export async function reachRedis(url: string): Promise<RedisOptions> {
  const opts = redisOptions(url);
  await probe(url, opts);
  return opts;
}
