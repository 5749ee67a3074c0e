// Runs one sweep job: a replay venue of its own (startService with the job's replay options, on a
// free loopback port, its records in memory), the bot as a child process with its connection in
// the environment (the bot contract, docs/sweeps.md), until the bot exits, the replay reaches its
// end (the bot is then stopped), the replay's fault (its history could not be read: the bot is
// stopped, the job is an 'error' with no metrics) or the job's time bound (the bot is killed:
// 'timeout'). What is read back goes through the venue's public routes (status, session report)
// and its records; the bot's process group is always gone and the venue closed when this resolves.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { parseFixed } from '../../src-shared/decimal.ts';
import type { ReplayAccountReport, ReplayState } from '../../src-shared/types/replay.ts';
import { startService, type ServiceHandle, type ServiceOptions } from '../service.ts';
import { errorResult, type JobResult, type SweepJob } from './job.ts';
import { makeJobDir, removeOrphanJobDirs } from './job-dir.ts';
import { jobMetrics, netEquityCurve, thinCurve } from './metrics.ts';
import { OutputTail } from './output-tail.ts';

/** What a replay reads its datasets through (a dataset pack opened by pack.ts). */
export type JobData = NonNullable<ServiceOptions['replay']>['data'];

/** After the replay's end, how long the bot has to exit by itself before SIGTERM, then SIGKILL. */
const GRACE_MS = 1000;
const POLL_MS = 20;

export interface RunJobOptions {
  data: JobData;
  /** The job's venue started ahead (openJobVenue), while the worker's previous job ran. */
  venue?: Promise<JobVenue>;
  /** Called once with the wall ms from the job's start to the bot's first request. */
  onFirstRequest?: (ms: number) => void;
  /** Called once the bot is spawned (the worker may start its next job's venue meanwhile). */
  onBotSpawned?: () => void;
}

/** A job's venue, started: the service and the bot account's credentials, or why it did not start. */
export type JobVenue = { svc: ServiceHandle; key: string; secret: string } | { error: string };

/**
 * Signals the bot's process group. Once the bot itself has exited only `leftovers` does: what it
 * started and left behind (`helper &`, a shell's child) is in its group still, and the group's id
 * cannot go to another process while one of them lives.
 */
function killGroup(child: ChildProcess, signal: NodeJS.Signals, leftovers = false): void {
  if (child.pid === undefined) return;
  if (!leftovers && (child.exitCode !== null || child.signalCode !== null)) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone already
  }
}

/** The bots running in this process: killed with it when it exits (a worker told to stop, or failing). */
const liveBots = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of liveBots) killGroup(c, 'SIGKILL');
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function getJson<T>(svc: ServiceHandle, url: string): Promise<T> {
  const r = await svc.app.inject({ method: 'GET', url });
  const body = r.json() as { code: number; message: string; data: T };
  if (r.statusCode !== 200) throw new Error(`${url} answered ${r.statusCode}: ${body.message}`);
  return body.data;
}

/** SHA-256 of the venue's records, as the replay determinism test reads them. */
function recordsDigest(svc: ServiceHandle): string {
  const db = svc.venue.db;
  // integers read whole (a wallet of 1e9 USDT is 1e17 units, past 2^53), written as numbers when
  // exact, so the digests of every other job stay what they were
  const rows = (sql: string) => {
    const st = db.prepare(sql);
    st.setReadBigInts(true);
    return st.all();
  };
  const text = JSON.stringify(
    {
      trades: rows('SELECT * FROM trades ORDER BY account_id, id'),
      orders: rows('SELECT * FROM orders ORDER BY id'),
      positions: rows('SELECT * FROM positions ORDER BY id'),
      closed: rows('SELECT * FROM closed_positions ORDER BY id'),
      // an account row's creation time is wall time, and the local account's key is random
      wallets: rows('SELECT id, wallet_balance, total_deposits FROM accounts ORDER BY id'),
    },
    (_k, v: unknown) =>
      typeof v !== 'bigint'
        ? v
        : v <= Number.MAX_SAFE_INTEGER && v >= -Number.MAX_SAFE_INTEGER
          ? Number(v)
          : v.toString(),
  );
  return createHash('sha256').update(text).digest('hex');
}

function jobEnv(job: SweepJob, svc: { url: string }, cred: { key: string; secret: string; dir: string }) {
  return {
    PERPDESK_URL: svc.url,
    PERPDESK_WS_URL: `${svc.url.replace(/^http/, 'ws')}/ws`,
    PERPDESK_BINANCE_URL: `${svc.url}/binance`,
    PERPDESK_API_KEY: cred.key,
    PERPDESK_API_SECRET: cred.secret,
    PERPDESK_PARAMS: JSON.stringify(job.params),
    PERPDESK_JOB_ID: job.id,
    PERPDESK_SEED: String(job.seed),
    PERPDESK_SYMBOLS: job.symbols.join(','),
    PERPDESK_START: String(job.start),
    PERPDESK_UNTIL: String(job.until),
    PERPDESK_LOCKSTEP: job.lockstep ? '1' : '0',
    PERPDESK_JOB_DIR: cred.dir,
  };
}

/** The replay options of a job (what startService is given). */
function replayOptions(job: SweepJob, data: JobData, balance: bigint): NonNullable<ServiceOptions['replay']> {
  return {
    options: {
      symbols: job.symbols,
      start: job.start,
      until: job.until,
      ...(job.datasets === undefined ? {} : { datasets: job.datasets }),
      queueModel: job.queueModel,
      orderLatency: job.orderLatency,
      responseLatency: job.responseLatency,
      dataLatency: job.dataLatency,
    },
    data,
    lockstep: job.lockstep,
    liveUrl: null,
    balance,
  };
}

/**
 * Starts a job's venue: its own port, its records in memory, the bot's account with the job's
 * balance; throws what the venue refuses.
 */
async function startJobVenue(
  job: SweepJob,
  data: JobData,
): Promise<{ svc: ServiceHandle; key: string; secret: string }> {
  const balance = parseFixed(job.balance, 8);
  if (!balance.ok) throw new RangeError(`balance '${job.balance}' is not a USDT amount`);
  const key = `sweepbot_${job.index}`;
  const secret = randomBytes(16).toString('hex');
  const svc = await startService({
    dataDir: ':memory:',
    port: 0,
    rateLimit: false,
    logger: false,
    speed: job.speed,
    accounts: [{ apiKey: key, apiSecret: secret, balance: balance.value, positionMode: job.positionMode }],
    replay: replayOptions(job, data, balance.value),
  });
  return { svc, key, secret };
}

/**
 * Opens and closes a job's venue as its job will (the bot's account included): null when it
 * starts, else why not (the replay's own checks).
 */
export async function checkVenue(job: SweepJob, data: JobData): Promise<string | null> {
  try {
    await (await startJobVenue(job, data)).svc.close();
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Starts a job's venue (startJobVenue), or says why it did not start. It stands still until its
 * job runs (a lockstep replay waits for the bot's steps; one at a speed for the play).
 */
export async function openJobVenue(job: SweepJob, data: JobData): Promise<JobVenue> {
  try {
    return await startJobVenue(job, data);
  } catch (err) {
    return { error: `the replay venue did not start: ${err instanceof Error ? err.message : err}` };
  }
}

export async function runJob(job: SweepJob, opts: RunJobOptions): Promise<JobResult> {
  const t0 = performance.now();
  const since = () => Math.round(performance.now() - t0);
  const venue = await (opts.venue ?? openJobVenue(job, opts.data));
  if ('error' in venue) return errorResult(job, venue.error, since());
  const { svc, key, secret } = venue;
  removeOrphanJobDirs();
  const dir = makeJobDir();
  let result: JobResult;
  try {
    result = await drive(job, svc, {
      key,
      secret,
      dir,
      t0,
      onFirstRequest: opts.onFirstRequest,
      onBotSpawned: opts.onBotSpawned,
    });
  } finally {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
  // the venue's close is the job's time too
  return { ...result, wallMs: since(), venueAhead: opts.venue !== undefined };
}

interface DriveContext {
  key: string;
  secret: string;
  dir: string;
  t0: number;
  onFirstRequest?: (ms: number) => void;
  onBotSpawned?: () => void;
}

async function drive(job: SweepJob, svc: ServiceHandle, cx: DriveContext): Promise<JobResult> {
  const since = () => Math.round(performance.now() - cx.t0);
  let firstRequestMs: number | null = null;
  const first = () => {
    if (firstRequestMs !== null) return;
    firstRequestMs = since();
    cx.onFirstRequest?.(firstRequestMs);
  };
  svc.app.server.once('request', first);
  svc.app.server.once('upgrade', first);
  if (!job.lockstep) await svc.app.inject({ method: 'POST', url: '/api/v1/replay', payload: { action: 'play' } });

  const tail = new OutputTail();
  const startMs = since();
  const child = spawn(job.bot[0], job.bot.slice(1), {
    cwd: job.cwd,
    env: { ...process.env, ...jobEnv(job, svc, cx) },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  liveBots.add(child);
  child.once('exit', () => liveBots.delete(child));
  child.stdout!.on('data', (b: Buffer) => tail.push(b));
  child.stderr!.on('data', (b: Buffer) => tail.push(b));
  cx.onBotSpawned?.();
  let spawnError: Error | null = null;
  const exited = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      spawnError = err;
      resolve();
    });
    child.once('exit', () => resolve());
  });
  // 'close' (the pipes drained) may come before or right after 'exit': listened for from the start
  const drained = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let done = false;
  void exited.then(() => (done = true));

  let endedBy: JobResult['endedBy'] = 'bot';
  let stopped = false;
  let state: ReplayState;
  // the bound is the bot's: the venue's own start is not its time
  const deadline = performance.now() + job.timeoutMs;
  while (!done) {
    if (performance.now() >= deadline) {
      endedBy = 'timeout';
      killGroup(child, 'SIGKILL');
      break;
    }
    state = await getJson<ReplayState>(svc, '/api/v1/replay');
    // the end of the replay, or a fault (its history could not be read: it never moves again)
    if (state.finished || state.fault !== null) {
      endedBy = state.finished ? 'replay' : 'venue';
      await Promise.race([exited, sleep(GRACE_MS)]);
      if (!done) {
        stopped = true;
        killGroup(child, 'SIGTERM');
      }
      await Promise.race([exited, sleep(GRACE_MS)]);
      if (!done) killGroup(child, 'SIGKILL');
      break;
    }
    await Promise.race([exited, sleep(POLL_MS)]);
  }
  await exited;
  const botMs = since() - startMs;
  // what the bot left running goes with it (a child holding its pipes would keep them open), at
  // once: the bot's own output is in the pipes already
  killGroup(child, 'SIGKILL', true);
  // the bot's last lines may still be in the pipes
  await Promise.race([drained, sleep(200)]);
  tail.end();
  state = await getJson<ReplayState>(svc, '/api/v1/replay');
  if (endedBy === 'bot' && state.finished) endedBy = 'replay';
  // a fault ends the job whatever the bot did about it (a step refused 5001 may have made it exit)
  if (state.fault !== null) endedBy = 'venue';

  const exitCode = child.exitCode;
  const signal = child.signalCode;
  let status: JobResult['status'];
  let reason: string;
  if (spawnError !== null) {
    status = 'failed';
    reason = `the bot did not start: ${(spawnError as Error).message}`;
  } else if (state.fault !== null) {
    // not the bot's doing, and its figures would be of part of the span: no metrics
    status = 'error';
    reason =
      `the replay's history could not be read at ${new Date(state.fault.time).toISOString()} ` +
      `(${state.fault.message}): the replay stopped there, short of the job's end`;
  } else if (endedBy === 'timeout') {
    status = 'timeout';
    reason = `killed at the time bound (${job.timeoutMs} ms)`;
  } else if (endedBy === 'replay') {
    // stopped by us after the replay's end, or exited by itself: fine unless it failed by itself
    status = stopped || exitCode === 0 ? 'ok' : 'failed';
    reason =
      status === 'ok'
        ? 'the replay reached its end'
        : exitCode !== null
          ? `the bot exited with code ${exitCode}`
          : `the bot was killed by ${signal}`;
  } else if (exitCode === 0) {
    status = 'ok';
    // said when it left before the span's end: its figures stop there (flat after it)
    reason =
      state.time < job.until
        ? `the bot exited 0 at ${new Date(state.time).toISOString()}, before the span's end ` +
          `(${new Date(job.until).toISOString()})`
        : 'the bot exited 0';
  } else {
    status = 'failed';
    reason = exitCode !== null ? `the bot exited with code ${exitCode}` : `the bot was killed by ${signal}`;
  }

  const report = await getJson<{ accounts: ReplayAccountReport[] }>(svc, '/api/v1/replay/report?format=json');
  const botId = (svc.venue.db.prepare('SELECT id FROM accounts WHERE api_key = ?').get(cx.key) as { id: number }).id;
  const account = report.accounts.find((a) => a.user_id === botId);
  const closed = svc.venue.db
    .prepare('SELECT realized_pnl FROM closed_positions WHERE account_id = ? ORDER BY id')
    .all(botId)
    .map((r) => Number((r as { realized_pnl: number }).realized_pnl) / 1e8);
  const metrics =
    status === 'error'
      ? null
      : jobMetrics({ account, balance: Number(job.balance), closed, span: [job.start, job.until] });
  return {
    jobId: job.id,
    status,
    reason,
    endedBy,
    exitCode,
    signal,
    digest: recordsDigest(svc),
    metrics,
    equity: metrics === null ? [] : thinCurve(netEquityCurve(account, Number(job.balance))),
    outputTail: tail.lines(),
    firstRequestMs,
    wallMs: since(),
    startMs,
    botMs,
    replayTime: state.time,
    finished: state.finished,
  };
}
