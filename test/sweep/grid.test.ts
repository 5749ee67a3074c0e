// The grid file (docs/sweeps.md, The grid file): full grids, listed and random sets, repeats
// dropped, and a clear error for each way a file can be wrong.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GridError, parseGrid } from '../../src-main/sweep/grid.ts';
import { ROOT } from './fixture.ts';

/** The sets of a grid file's text. */
const setsOf = (text: string) => parseGrid(text).sets;

describe('parseGrid', () => {
  it('says when random draws repeat: how many sets they gave, for the run to say', () => {
    // lookback 2 or 3: twenty draws, two sets
    const few = parseGrid(JSON.stringify({ random: { count: 20, params: { lookback: { min: 2, max: 3 } } } }));
    expect(few.sets).toHaveLength(2);
    expect(few.note).toBe('20 random draws gave 2 distinct sets');
    // beside a grid: the draws that repeat its sets are not new either
    const beside = parseGrid(
      JSON.stringify({ grid: { lookback: [2] }, random: { count: 20, params: { lookback: { min: 2, max: 3 } } } }),
    );
    expect(beside.sets).toEqual([{ lookback: 2 }, { lookback: 3 }]);
    expect(beside.note).toBe('20 random draws gave 1 new set (the others repeat a set drawn or listed before)');
    // every draw a set of its own: nothing to say
    const wide = parseGrid(JSON.stringify({ random: { count: 3, params: { x: { min: 0.1, max: 0.9 } } } }));
    expect(wide.sets).toHaveLength(3);
    expect(wide.note).toBeUndefined();
    expect(parseGrid(JSON.stringify({ grid: { a: [1, 1] } })).note).toBeUndefined();
  });

  it('reads a file saved with a UTF-8 byte order mark as the same file without it', () => {
    const text = JSON.stringify({ grid: { fast: [3, 5] } });
    expect(setsOf(`\uFEFF${text}`)).toEqual(setsOf(text));
  });

  it('expands a full grid, the first name varying slowest', () => {
    expect(setsOf(JSON.stringify({ grid: { fast: [3, 5], slow: [10, 20, 30] } }))).toEqual([
      { fast: 3, slow: 10 },
      { fast: 3, slow: 20 },
      { fast: 3, slow: 30 },
      { fast: 5, slow: 10 },
      { fast: 5, slow: 20 },
      { fast: 5, slow: 30 },
    ]);
  });

  it('adds listed sets after the grid and drops repeats whatever their key order', () => {
    const sets = setsOf(
      JSON.stringify({
        grid: { fast: [3], slow: [10] },
        sets: [
          { slow: 10, fast: 3 },
          { fast: 4, slow: 30, qty: '0.02', hedge: true },
        ],
      }),
    );
    expect(sets).toEqual([
      { fast: 3, slow: 10 },
      { fast: 4, slow: 30, qty: '0.02', hedge: true },
    ]);
  });

  it("completes every set with the defaults, a set's own value first, and drops the sets that become one", () => {
    const g = parseGrid(
      JSON.stringify({
        grid: { fast: [3, 5] },
        sets: [
          { fast: 3, qty: '0.01' },
          { fast: 4, qty: '0.02' },
        ],
        defaults: { qty: '0.01', step_minutes: 15 },
      }),
    );
    expect(g.defaults).toEqual({ qty: '0.01', step_minutes: 15 });
    // { fast: 3, qty: '0.01' } is { fast: 3 } at its default qty: one set
    expect(g.sets).toEqual([
      { fast: 3, qty: '0.01', step_minutes: 15 },
      { fast: 5, qty: '0.01', step_minutes: 15 },
      { fast: 4, qty: '0.02', step_minutes: 15 },
    ]);
    // a set's own names first (the page's first columns, its heat map's axes), then the defaults
    expect(g.sets.map((x) => Object.keys(x))).toEqual([
      ['fast', 'qty', 'step_minutes'],
      ['fast', 'qty', 'step_minutes'],
      ['fast', 'qty', 'step_minutes'],
    ]);
    // only defaults: one set of them; none: {}
    expect(parseGrid(JSON.stringify({ defaults: { fast: 4 } }))).toEqual({
      sets: [{ fast: 4 }],
      defaults: { fast: 4 },
    });
    expect(parseGrid(JSON.stringify({ sets: [{ fast: 4 }] })).defaults).toEqual({});
  });

  it('draws random sets from ranges and lists, the same for the same seed and others for another', () => {
    const file = (seed: number) =>
      JSON.stringify({
        random: {
          count: 30,
          seed,
          params: { fast: { min: 2, max: 9 }, width: { min: 0.1, max: 0.5, step: 0.05 }, qty: ['0.01', '0.02'] },
        },
      });
    const a = setsOf(file(7));
    expect(setsOf(file(7))).toEqual(a);
    expect(setsOf(file(8))).not.toEqual(a);
    expect(a.length).toBeGreaterThan(20); // repeats dropped, most of 30 kept
    for (const s of a) {
      expect(Number.isInteger(s.fast)).toBe(true);
      expect(s.fast).toBeGreaterThanOrEqual(2);
      expect(s.fast).toBeLessThanOrEqual(9);
      const w = s.width as number;
      expect(w).toBeGreaterThanOrEqual(0.1);
      expect(w).toBeLessThanOrEqual(0.5);
      expect(Math.abs(w * 20 - Math.round(w * 20))).toBeLessThan(1e-9);
      expect(['0.01', '0.02']).toContain(s.qty);
    }
    // every value of the small integer range shows up
    expect(new Set(a.map((s) => s.fast)).size).toBeGreaterThanOrEqual(6);
  });

  it('draws min + k x step exactly for steps and bounds below 1e-6 (written 1e-7), with no float drift', () => {
    const sets = setsOf(
      JSON.stringify({
        random: {
          count: 40,
          seed: 3,
          params: {
            thr: { min: 1e-7, max: 9e-7, step: 1e-7 },
            w: { min: 0.000001, max: 0.0000025, step: 1e-7 },
            neg: { min: -0.3, max: 0.3, step: 0.1 },
          },
        },
      }),
    );
    const thr = Array.from({ length: 9 }, (_, k) => Number(`${k + 1}e-7`));
    const w = Array.from({ length: 16 }, (_, k) => Number(`${10 + k}e-7`));
    const neg = ['-0.3', '-0.2', '-0.1', '0', '0.1', '0.2', '0.3'].map(Number);
    expect(sets.length).toBeGreaterThan(30); // a few random repeats dropped, not values collapsed to 0
    for (const s of sets) {
      expect(thr).toContain(s.thr);
      expect(w).toContain(s.w);
      expect(neg).toContain(s.neg);
    }
    expect(new Set(sets.map((s) => s.thr)).size).toBeGreaterThanOrEqual(7);
    expect(new Set(sets.map((s) => s.w)).size).toBeGreaterThanOrEqual(10);
    // the tester's file: five distinct sets, none of them 0
    const tiny = setsOf(
      JSON.stringify({
        random: {
          count: 5,
          seed: 3,
          params: { thr: { min: 1e-7, max: 9e-7, step: 1e-7 }, w: { min: 0.000001, max: 0.00001, step: 0.000001 } },
        },
      }),
    );
    expect(tiny).toHaveLength(5);
    for (const s of tiny) expect(thr).toContain(s.thr);
  });

  it.each([
    ['{', /not JSON/],
    ['[]', /must be a JSON object/],
    ['{}', /has none of "grid", "sets", "random" and "defaults"/],
    ['{"sets": [{"a": 1}], "defaults": [1]}', /"defaults" must be an object of parameter values/],
    ['{"sets": [{"a": 1}], "defaults": {"a": null}}', /"defaults".a must be a string, a number or a boolean/],
    ['{"sets": [{"a": 1}], "defaults": {"a-b": 1}}', /'a-b' is not a parameter name/],
    ['{"grid": {"fast": []}}', /"grid.fast" must be a non-empty list/],
    ['{"grid": {"fast": [1, null]}}', /"grid.fast"\[1\] must be a string, a number or a boolean/],
    ['{"grid": {"fast": [{"a": 1}]}}', /must be a string, a number or a boolean/],
    ['{"grid": {"9lives": [1]}}', /'9lives' is not a parameter name/],
    ['{"sets": [{"a": 1}, 5]}', /"sets"\[1\] must be an object/],
    ['{"sets": []}', /"sets" must be a non-empty list/],
    // an empty grid was told it "must be an object of parameter lists", which it is
    ['{"grid": {}}', /^"grid" names no parameter: give each parameter its list of values, \{"fast": \[3, 5\]\}$/],
    ['{"grid": [3, 5]}', /^"grid" must be an object of parameter lists, got \[3,5\]$/],
    ['{"random": {"count": 0, "params": {"a": [1]}}}', /"random.count" must be an integer from 1/],
    ['{"random": {"count": 3, "params": {}}}', /"random.params" must be an object of at least one/],
    ['{"random": {"count": 3, "params": {"a": {"min": 5, "max": 1}}}}', /min <= max/],
    ['{"random": {"count": 3, "params": {"a": {"min": 1, "max": 5, "step": 0}}}}', /step must be a positive number/],
    ['{"random": {"count": 3, "params": {"a": {"min": 1, "max": 5, "pick": 2}}}}', /unknown field 'pick'/],
    // a misspelt min named, as the top level names its unknown fields (it said "wants numbers min <= max")
    [
      '{"random": {"count": 3, "params": {"band": {"mni": 0.1, "max": 0.5}}}}',
      /^"random.params.band" has an unknown field 'mni' \(a range has "min", "max" and "step"\)$/,
    ],
    // a step past the range could only ever draw min: every set would be the same
    [
      '{"random": {"count": 3, "params": {"a": {"min": 1, "max": 2, "step": 5}}}}',
      /"random.params.a".step 5 is more than max - min \(1 to 2\): only 1 could be drawn/,
    ],
    // 1e400 is read as Infinity, which JSON would show as null
    ['{"grid": {"fast": [1e400]}}', /"grid.fast"\[0\] must be .*, got Infinity \(a number too large to read\)$/],
    [
      '{"random": {"count": 3, "params": {"a": {"min": 1, "max": 1e400}}}}',
      /wants numbers min <= max, got \{"min":1,"max":Infinity \(a number too large to read\)\}/,
    ],
    ['{"random": {"params": {"a": [1]}}}', /"random.count" must be an integer from 1 to 10000, got nothing$/],
    ['{"grids": {"a": [1]}}', /unknown field 'grids'/],
    [
      JSON.stringify({
        grid: Object.fromEntries('abcde'.split('').map((k) => [k, Array.from({ length: 10 }, (_, i) => i)])),
      }),
      /more than 10000 sets/,
    ],
  ])('refuses %s', (text, msg) => {
    expect(() => parseGrid(text)).toThrow(GridError);
    expect(() => parseGrid(text)).toThrow(msg);
  });
});

describe('a number the bot would get another value of', () => {
  // JSON.parse rounds to a double: 12345678901234567891 reached the bot as 12345678901234567000,
  // the CSV and the page showing that, with no word of the change
  it.each([
    [
      '{"grid": {"seed": [12345678901234567891]}}',
      '"grid.seed"[0] is 12345678901234567891, which a JSON number cannot hold exactly: the bot would get ' +
        '12345678901234567000; write it as a string ("12345678901234567891") and read it as such in the bot',
    ],
    ['{"sets": [{"id": 9007199254740993}]}', '"sets"[0].id is 9007199254740993, which a JSON number'],
    ['{"defaults": {"x": 1.00000000000000001}}', '"defaults".x is 1.00000000000000001, which a JSON number'],
    ['{"random": {"count": 2, "params": {"a": [1, 0.12345678901234567891]}}}', '"random.params.a"[1] is 0.1234'],
  ])('%s is refused, naming it', (text, msg) => {
    expect(() => parseGrid(text)).toThrow(GridError);
    expect(() => parseGrid(text)).toThrow(msg);
  });

  it('takes every number written as its double reads it, and a range bound or a comment as read', () => {
    const text =
      '{"comment": 12345678901234567891, "sets": [{"a": 0.1, "b": 1.0, "c": 1e-7, "d": 2.50, "e": 9007199254740991,' +
      ' "f": 0.30000000000000004, "g": -0}], "random": {"count": 1, "params": {"h": {"min": 1, "max": 1.00000000000000001}}}}';
    expect(parseGrid(text).sets).toEqual([
      { a: 0.1, b: 1, c: 1e-7, d: 2.5, e: 9007199254740991, f: 0.30000000000000004, g: -0 },
      { h: 1 },
    ]);
  });
});

describe('a grid file that is not JSON', () => {
  // V8 names a position for some faults only; for others it quotes the text around it, the
  // file's line breaks too: the message was two lines without the place
  it.each([
    ['{"grid": {"fast": [3, 5], "slow": [12, }\n', "not JSON at line 1 column 40: unexpected '}'"],
    ['{\n  "grid": {\n    "fast": [3, 5],\n  }\n}\n', "not JSON at line 4 column 3: unexpected '}'"],
    ['{"grid": {"fast": [3, 5]\n', 'not JSON at line 2 column 1: the text ends before the JSON value does'],
    ['\uFEFF{"sets": [{"é": 1},,]}', "not JSON at line 1 column 20: unexpected ','"],
    ['{"sets": [{"a": "x\ty"}]}', 'not JSON at line 1 column 19: unexpected "\\t" inside a string'],
    ['{"sets": [{"a": 1}]}\r\n}', "not JSON at line 2 column 1: '}' after the JSON value"],
    ['{"sets": [{"a": 01}]}', "not JSON at line 1 column 18: unexpected '1'"],
  ])('%j: one line naming the place', (text, msg) => {
    expect(() => parseGrid(text)).toThrow(GridError);
    expect(() => parseGrid(text)).toThrow(new GridError(msg));
  });
});

describe('the example grids', () => {
  // a set whose parameters its bot does not read runs the bot's defaults: a duplicate in the
  // results under another name (examples/sweep-grid.json once held the ccxt bot's lookback)
  it.each([
    ['examples/sweep-grid.json', 'examples/sweep-bot.ts', 11],
    ['examples/sweep-ccxt-grid.json', 'examples/sweep-ccxt-bot.ts', 6],
  ])('%s names only parameters %s reads, and its sets are distinct bots', (grid, bot, count) => {
    const reads = new Set(
      [...readFileSync(path.join(ROOT, bot), 'utf8').matchAll(/\bparams\.(\w+)/g)].map((m) => m[1]),
    );
    const sets = setsOf(readFileSync(path.join(ROOT, grid), 'utf8'));
    expect(sets).toHaveLength(count);
    for (const set of sets) for (const name of Object.keys(set)) expect(reads, `${grid}: ${name}`).toContain(name);
    // and the sweep-bot's own rule (1 <= fast < slow) holds for each, so no set fails by design
    if (bot.endsWith('sweep-bot.ts'))
      for (const set of sets) expect(Number(set.fast ?? 4)).toBeLessThan(Number(set.slow ?? 16));
  });
});

describe('one value given twice in two spellings', () => {
  // {"grid": {"fast": [1, "1"]}} ran one set twice, and the CSV showed two rows that could not be
  // told apart: numbers and decimal strings are one value when equal as decimals (as the Sweeps
  // page sorts them), other strings only when the same text
  it.each([
    ['{"grid": {"fast": [1, "1"]}}', '"grid.fast": 1 and "1" are the same value; give it once'],
    ['{"grid": {"fast": [3, 1, 5, "1.0"]}}', '"grid.fast": 1 and "1.0" are the same value; give it once'],
    [
      '{"grid": {"a": [2], "qty": [0.5, "0.25", "0.50"]}}',
      '"grid.qty": 0.5 and "0.50" are the same value; give it once',
    ],
    ['{"grid": {"qty": ["0.5", "0.50"]}}', '"grid.qty": "0.5" and "0.50" are the same value; give it once'],
    ['{"grid": {"n": ["1e3", 1000]}}', '"grid.n": "1e3" and 1000 are the same value; give it once'],
    ['{"grid": {"n": [-0, "0"]}}', '"grid.n": 0 and "0" are the same value; give it once'],
    [
      '{"random": {"count": 4, "params": {"qty": ["0.01", "0.010"]}}}',
      '"random.params.qty": "0.01" and "0.010" are the same value; give it once',
    ],
  ])('refuses %s', (text, msg) => {
    expect(() => parseGrid(text)).toThrow(new GridError(msg));
  });

  it('keeps values that differ, and drops a value given twice alike as before', () => {
    expect(setsOf('{"grid": {"fast": [1, "1a", "x", "X"]}}')).toEqual([
      { fast: 1 },
      { fast: '1a' },
      { fast: 'x' },
      { fast: 'X' },
    ]);
    // decimals compared exactly: a bot reading the string as a decimal gets another value
    expect(setsOf('{"grid": {"qty": ["0.1", "0.1000000000000000000001"]}}')).toHaveLength(2);
    expect(setsOf('{"grid": {"fast": [1, 1, "2", "2"]}}')).toEqual([{ fast: 1 }, { fast: '2' }]);
  });

  // the same across sets: {"sets": [{"fast": 1}, {"fast": "1"}]}, or one in "grid" and one in
  // "sets", ran one set twice as well
  it.each([
    [
      '{"sets": [{"fast": 1}, {"fast": "1"}]}',
      'the sets {"fast":1} and {"fast":"1"} are the same set in two spellings; give it once',
    ],
    [
      '{"grid": {"fast": [1, 2]}, "sets": [{"fast": "2.0"}]}',
      'the sets {"fast":2} and {"fast":"2.0"} are the same set in two spellings; give it once',
    ],
    [
      '{"sets": [{"fast": 1, "slow": 0.5}, {"slow": "0.50", "fast": 1}]}',
      'the sets {"fast":1,"slow":0.5} and {"fast":1,"slow":"0.50"} are the same set in two spellings; give it once',
    ],
    [
      '{"defaults": {"slow": 30}, "sets": [{"fast": 1}, {"fast": 1, "slow": "30"}]}',
      'the sets {"fast":1,"slow":30} and {"fast":1,"slow":"30"} are the same set in two spellings; give it once',
    ],
  ])('refuses %s', (text, msg) => {
    expect(() => parseGrid(text)).toThrow(new GridError(msg));
  });

  it('drops a random draw that repeats a listed set in another spelling, and keeps sets that differ', () => {
    const g = parseGrid('{"sets": [{"fast": "1"}], "random": {"count": 6, "seed": 3, "params": {"fast": [1]}}}');
    expect(g.sets).toEqual([{ fast: '1' }]);
    expect(setsOf('{"sets": [{"fast": 1}, {"fast": "1a"}, {"fast": true}, {"fast": "true"}]}')).toHaveLength(4);
  });
});
