// Planning a sweep: the replay span, its split, the bot command and the data checks that run
// before any job starts (docs/sweeps.md).
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatasetRecord } from '../../src-main/data/ports.ts';
import {
  checkBot,
  checkData,
  parseSpan,
  parseSplit,
  planJobs,
  PlanError,
  splitCommand,
  splitSpan,
  type JobTemplate,
} from '../../src-main/sweep/plan.ts';
import { DAY, JAN6, ROOT } from './fixture.ts';

const H = 3_600_000;

describe('the replay span and its split', () => {
  it('reads dates as whole days, the last one included, and times exactly', () => {
    expect(parseSpan('BTCUSDT@2025-01-06..2025-01-12')).toEqual({
      symbols: ['BTCUSDT'],
      start: JAN6,
      until: JAN6 + 7 * DAY,
      dates: true,
    });
    expect(parseSpan('BTCUSDT,ETHUSDT@2025-01-06T08:00Z..2025-01-06T20:30Z')).toEqual({
      symbols: ['BTCUSDT', 'ETHUSDT'],
      start: JAN6 + 8 * H,
      until: JAN6 + 20.5 * H,
      dates: false,
    });
  });

  it.each([
    ['BTCUSDT@2025-01-06', /SYMBOL\[,SYMBOL2...\]@FROM..TO/],
    ['btc@2025-01-06..2025-01-07', /upper-case/],
    ['BTCUSDT,BTCUSDT@2025-01-06..2025-01-07', /twice/],
    ['BTCUSDT@2025-02-30..2025-03-01', /FROM must be a UTC date/],
    ['BTCUSDT@2025-01-06..tomorrow', /TO must be a UTC date/],
    ['BTCUSDT@2025-01-06T10:00Z..2025-01-06T09:00Z', /ends .* before it starts/],
    // an end at its start is an empty span, which does not end before it starts
    [
      'BTCUSDT@2025-01-06T08:00Z..2025-01-06T08:00Z',
      /^--replay is empty: it ends \(2025-01-06T08:00Z\) where it starts \(2025-01-06T08:00Z\); give an end after the start$/,
    ],
    ['BTCUSDT@2025-01-06..2025-01-06T00:00Z', /^--replay is empty/],
    // dates the wrong way round by one day: the day TO is before FROM (it said `ends (2025-01-06)
    // where it starts (2025-01-07)`, as the day's end is the start)
    ['BTCUSDT@2025-01-07..2025-01-06', /^--replay ends \(2025-01-06\) before it starts \(2025-01-07\)$/],
    ['BTCUSDT@2025-01-07T00:00Z..2025-01-06', /^--replay ends \(2025-01-06\) before it starts \(2025-01-07T00:00Z\)$/],
  ])('refuses --replay %s', (text, msg) => {
    expect(() => parseSpan(text)).toThrow(PlanError);
    expect(() => parseSpan(text)).toThrow(msg);
  });

  it('cuts days at UTC midnight, weeks at Monday, hours from the start', () => {
    const span = { symbols: ['X'], start: JAN6 + 20 * H, until: JAN6 + 2 * DAY + 3 * H };
    expect(splitSpan(span, parseSplit('day'))).toEqual([
      [JAN6 + 20 * H, JAN6 + DAY],
      [JAN6 + DAY, JAN6 + 2 * DAY],
      [JAN6 + 2 * DAY, JAN6 + 2 * DAY + 3 * H],
    ]);
    expect(splitSpan(span, parseSplit('none'))).toEqual([[span.start, span.until]]);
    expect(splitSpan(span, parseSplit('12h')).map(([a, b]) => (b - a) / H)).toEqual([12, 12, 7]);
    // 2025-01-06 is a Monday: a span from Sunday the 5th cuts there
    const weeks = splitSpan({ symbols: ['X'], start: JAN6 - DAY, until: JAN6 + 10 * DAY }, parseSplit('week'));
    expect(weeks).toEqual([
      [JAN6 - DAY, JAN6],
      [JAN6, JAN6 + 7 * DAY],
      [JAN6 + 7 * DAY, JAN6 + 10 * DAY],
    ]);
    expect(() => parseSplit('month')).toThrow(/--split must be day, week, none or a number of hours/);
    expect(() => parseSplit('0h')).toThrow(PlanError);
  });

  it('plans every piece times every set, pieces outer, with ids and indexes', () => {
    const t = { symbols: ['X'] } as unknown as JobTemplate;
    const jobs = planJobs(
      'swA',
      [
        [0, 1],
        [1, 2],
      ],
      [{ a: 1 }, { a: 2 }, { a: 3 }],
      t,
    );
    expect(jobs.map((j) => [j.id, j.start, j.params.a])).toEqual([
      ['swA:0', 0, 1],
      ['swA:1', 0, 2],
      ['swA:2', 0, 3],
      ['swA:3', 1, 1],
      ['swA:4', 1, 2],
      ['swA:5', 1, 3],
    ]);
  });
});

describe('the bot command', () => {
  it('splits words as a shell does, quotes and backslashes included', () => {
    expect(splitCommand(`node "my bot.ts" --name 'a b' x\\ y "say \\"hi\\""`)).toEqual([
      'node',
      'my bot.ts',
      '--name',
      'a b',
      'x y',
      'say "hi"',
    ]);
    expect(() => splitCommand('node "open')).toThrow(/unclosed " quote/);
  });

  it("finds the program on PATH or as a path, and an interpreter's script", () => {
    expect(checkBot('node examples/sweep-bot.ts --x 1', ROOT)).toEqual(['node', 'examples/sweep-bot.ts', '--x', '1']);
    expect(checkBot('node -e "process.exit(0)"', ROOT)).toEqual(['node', '-e', 'process.exit(0)']);
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-bot-'));
    const exe = path.join(dir, 'bot.sh');
    writeFileSync(exe, '#!/bin/sh\nexit 0\n');
    chmodSync(exe, 0o755);
    expect(checkBot('./bot.sh', dir)).toEqual(['./bot.sh']);
    expect(() => checkBot('', ROOT)).toThrow(/--bot is empty/);
    expect(() => checkBot('no-such-bot-program --x', ROOT)).toThrow(
      /'no-such-bot-program' is not a command found on PATH/,
    );
    expect(() => checkBot('./missing.sh', dir)).toThrow(new RegExp(`^--bot: ${dir}/missing.sh does not exist$`));
    // a script that exists but is not executable was told 'does not exist or is not executable'
    const plain = path.join(dir, 'bot.ts');
    writeFileSync(plain, 'process.exit(0)\n');
    expect(() => checkBot('./bot.ts --x 1', dir)).toThrow(
      `--bot: ${plain} is not executable: make it so (chmod +x ${plain}), or give its interpreter first (--bot "node ./bot.ts --x 1")`,
    );
    expect(() => checkBot(`${dir}/`, dir)).toThrow(`--bot: ${dir} is a folder, not a program`);
    expect(() => checkBot('node examples/no-such-bot.ts', ROOT)).toThrow(/the script .*no-such-bot.ts does not exist/);
    expect(() => checkBot('python3 -u strategies/nope.py', ROOT)).toThrow(/nope.py does not exist/);
  });

  // `--bot "node examples"` passed the check (the path exists) and every job then failed with
  // node's `Cannot find module`: a folder is the script only where its interpreter runs one
  it('refuses a folder as the script unless its interpreter runs that folder', () => {
    expect(() => checkBot('node examples', ROOT)).toThrow(
      `--bot: the script ${ROOT}/examples is a folder, not a file: node runs a folder only with an index.js or ` +
        'a package.json "main" in it, and this one has neither; give the bot\'s file (--bot "node examples/FILE")',
    );
    const dir = mkdtempSync(path.join(tmpdir(), 'perpdesk-bot-dir-'));
    mkdirSync(path.join(dir, 'indexed'));
    writeFileSync(path.join(dir, 'indexed', 'index.js'), 'process.exit(0)\n');
    mkdirSync(path.join(dir, 'pkg'));
    writeFileSync(path.join(dir, 'pkg', 'package.json'), '{"main": "bot.js"}');
    writeFileSync(path.join(dir, 'pkg', 'bot.js'), 'process.exit(0)\n');
    mkdirSync(path.join(dir, 'py'));
    writeFileSync(path.join(dir, 'py', '__main__.py'), 'pass\n');
    expect(checkBot('node indexed', dir)).toEqual(['node', 'indexed']);
    expect(checkBot('node ./pkg --x 1', dir)).toEqual(['node', './pkg', '--x', '1']);
    expect(checkBot('python3 py', dir)).toEqual(['python3', 'py']);
    // a package.json whose "main" is not there: node cannot run it either
    writeFileSync(path.join(dir, 'pkg', 'package.json'), '{"main": "gone.js"}');
    expect(() => checkBot('node pkg', dir)).toThrow(/pkg is a folder, not a file: node runs a folder only/);
    expect(() => checkBot('python3 indexed', dir)).toThrow(
      `--bot: the script ${dir}/indexed is a folder, not a file: python3 runs a folder only with a __main__.py ` +
        'in it, and this one has none; give the bot\'s file (--bot "python3 indexed/FILE")',
    );
    expect(() => checkBot('sh py', dir)).toThrow(
      `--bot: the script ${dir}/py is a folder, not a file: give the bot's file (--bot "sh py/FILE")`,
    );
  });
});

describe('the data check', () => {
  const klines = {
    id: 1,
    market: 'spot',
    symbol: 'BTCUSDT',
    kind: 'klines',
    interval: '15m',
    firstTime: JAN6,
    lastTime: JAN6 + 7 * DAY - 15 * 60_000,
  } as unknown as DatasetRecord;
  const mark = { ...klines, id: 2, kind: 'markPriceKlines', firstTime: 0, lastTime: JAN6 * 2 } as DatasetRecord;

  it('takes a span inside a replayable dataset, its last candle counted whole', () => {
    expect(() =>
      checkData({ symbols: ['BTCUSDT'], start: JAN6, until: JAN6 + 7 * DAY }, [klines, mark], '/d'),
    ).not.toThrow();
  });

  it('names an unknown symbol and a span outside the data', () => {
    expect(() =>
      checkData({ symbols: ['BTCUSDT', 'ETHUSDT'], start: JAN6, until: JAN6 + DAY }, [klines], '/d'),
    ).toThrow(/no depth, trades or klines dataset of ETHUSDT in \/d/);
    // a mark-price series alone replays nothing
    expect(() => checkData({ symbols: ['BTCUSDT'], start: 0, until: DAY }, [mark], '/d')).toThrow(
      /no depth, trades or klines/,
    );
    expect(() => checkData({ symbols: ['BTCUSDT'], start: JAN6, until: JAN6 + 8 * DAY }, [klines], '/d')).toThrow(
      /the span 2025-01-06T00:00Z..2025-01-14T00:00Z goes past the end of the data of BTCUSDT: a span of times runs from 2025-01-06T00:00Z to 2025-01-13T00:00Z at most/,
    );
    expect(() => checkData({ symbols: ['BTCUSDT'], start: JAN6 - DAY, until: JAN6 + DAY }, [klines], '/d')).toThrow(
      /the span 2025-01-05T00:00Z..2025-01-07T00:00Z starts before the data of BTCUSDT: a span of times runs from 2025-01-06T00:00Z/,
    );
  });

  it('says of a span that overlaps the data which end of it lies outside, and of one that does not, that it is outside', () => {
    const at = (start: number, until: number) => () =>
      checkData({ symbols: ['BTCUSDT'], start: JAN6 + start * DAY, until: JAN6 + until * DAY }, [klines], '/d');
    const data =
      'the data of BTCUSDT: a span of times runs from 2025-01-06T00:00Z to 2025-01-13T00:00Z at most \\(the whole UTC days of its rows: its first row is at 2025-01-06T00:00Z, its last 15m candle opens at 2025-01-12T23:45Z\\)';
    // it said 'is outside the data' of each, though the first three overlap it
    expect(at(6, 8)).toThrow(
      new RegExp(`^the span 2025-01-12T00:00Z..2025-01-14T00:00Z goes past the end of ${data}$`),
    );
    expect(at(-2, 3)).toThrow(new RegExp(`^the span 2025-01-04T00:00Z..2025-01-09T00:00Z starts before ${data}$`));
    expect(at(-1, 8)).toThrow(
      new RegExp(`^the span 2025-01-05T00:00Z..2025-01-14T00:00Z starts before and goes past the end of ${data}$`),
    );
    expect(at(7, 9)).toThrow(new RegExp(`^the span 2025-01-13T00:00Z..2025-01-15T00:00Z is outside ${data}$`));
    expect(at(-3, 0)).toThrow(new RegExp(`^the span 2025-01-03T00:00Z..2025-01-06T00:00Z is outside ${data}$`));
  });

  it('names the days a span of dates can take, the last one whole, beside the time of its last event', () => {
    // a day's trades recorded to 23:59:58.123 of 2025-01-12: the day 2025-01-12 is replayed, to its end
    const rec = {
      ...klines,
      kind: 'trades',
      interval: '',
      firstTime: JAN6 + 5,
      lastTime: JAN6 + 7 * DAY - 1877,
    } as DatasetRecord;
    expect(() => checkData(parseSpan('BTCUSDT@2025-01-06..2025-01-12'), [rec], '/d')).not.toThrow();
    // it named the last event's time as the end of the data: the day read as cut short
    expect(() => checkData(parseSpan('BTCUSDT@2025-01-10..2025-01-14'), [rec], '/d')).toThrow(
      new RegExp(
        '^the span 2025-01-10..2025-01-14 goes past the end of the data of BTCUSDT: a span of dates runs from ' +
          '2025-01-06 to 2025-01-12 at most, each day to its end \\(its first row is at 2025-01-06T00:00:00.005Z, ' +
          'its last event is at 2025-01-12T23:59:58.123Z\\)$',
      ),
    );
    expect(() => checkData(parseSpan('BTCUSDT@2025-01-05..2025-01-05'), [rec], '/d')).toThrow(
      /^the span 2025-01-05..2025-01-05 is outside the data of BTCUSDT: a span of dates runs from 2025-01-06 to 2025-01-12 at most/,
    );
  });

  it('takes the rest of the UTC days the data begins and ends on (a recording from 00:00:00.061)', () => {
    const rec = {
      ...klines,
      kind: 'depth',
      interval: '',
      firstTime: JAN6 + 61,
      lastTime: JAN6 + 23_936,
    } as DatasetRecord;
    expect(() => checkData({ symbols: ['BTCUSDT'], start: JAN6, until: JAN6 + DAY }, [rec], '/d')).not.toThrow();
    expect(() => checkData({ symbols: ['BTCUSDT'], start: JAN6 - 1, until: JAN6 + DAY }, [rec], '/d')).toThrow(
      /the span 2025-01-05T23:59:59.999Z..2025-01-07T00:00Z starts before the data of BTCUSDT: a span of times runs from 2025-01-06T00:00Z to 2025-01-07T00:00Z at most \(the whole UTC days of its rows: its first row is at 2025-01-06T00:00:00.061Z, its last event is at 2025-01-06T00:00:23.936Z\)/,
    );
    expect(() => checkData({ symbols: ['BTCUSDT'], start: JAN6, until: JAN6 + DAY + 1 }, [rec], '/d')).toThrow(
      /goes past the end of the data/,
    );
  });
});
