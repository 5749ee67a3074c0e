import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  StepScale,
  createScale,
  formatFixed,
  formatNumber,
  fromUnits,
  isDecimalString,
  notionalDecimals,
  notionalUnits,
  parseFixed,
  rescaleFixed,
  toUnits,
  unitsToNumber,
} from '../../src-shared/decimal.ts';
import type { Rounding } from '../../src-shared/decimal.ts';

// An oracle with room for every digit the properties generate.
const D = Decimal.clone({ precision: 200, toExpNeg: -100, toExpPos: 100 });
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const ANY = { allowNegative: true, allowZero: true } as const;

describe('toUnits: grammar', () => {
  it.each([
    '',
    '.',
    '1.',
    '.5',
    '+1',
    ' 1',
    '1 ',
    '1e3',
    '1E3',
    '1e-3',
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '0b1',
    '01',
    '00',
    '00.1',
    '-01',
    '-',
    '--1',
    '-.5',
    '1..2',
    '1.2.3',
    '1,5',
    '1_000',
    '١',
    '１',
    '1\n',
    '\t1',
    '0.1 ',
    '- 1',
    '1-',
    '٫5',
    'abc',
  ])('rejects %j as format', (text) => {
    expect(toUnits(text, '0.1', ANY)).toEqual({ ok: false, reason: 'format' });
    expect(isDecimalString(text, true)).toBe(false);
  });

  it('rejects a non-string as format instead of throwing', () => {
    expect(toUnits(12 as unknown as string, '1', ANY)).toEqual({ ok: false, reason: 'format' });
  });

  it.each([
    ['0.1', 1],
    ['12345.6', 123456],
    ['12345.60', 123456],
    ['12345.6000000000000000000000', 123456],
    ['0', 0],
    ['0.0', 0],
    ['10', 100],
  ])('accepts %j with step 0.1 as %d', (text, units) => {
    expect(toUnits(text, '0.1', ANY)).toEqual({ ok: true, value: units });
    expect(isDecimalString(text)).toBe(true);
  });
});

describe('toUnits: steps', () => {
  it.each([
    ['1.5', '0.5', 3],
    ['7.5', '2.5', 3],
    ['15', '5', 3],
    ['100', '100', 1],
    ['0.003', '0.001', 3],
    ['1', '0.001', 1000],
    ['0.3', '0.10', 3],
    ['0.30', '0.10', 3],
    ['60000.1', '0.1', 600001],
    ['1.00', '1', 1],
    ['0.75', '0.25', 3],
  ])('%j on step %j is %d steps', (text, step, units) => {
    expect(toUnits(text, step)).toEqual({ ok: true, value: units });
  });

  it.each([
    ['0.15', '0.1'],
    ['1.25', '0.5'],
    ['7', '5'],
    ['0.0001', '0.001'],
    ['1.000000000000000000001', '1'],
    ['0.35', '0.10'],
    ['150', '100'],
    ['0.5', '1'],
  ])('%j on step %j is off_step, never rounded', (text, step) => {
    expect(toUnits(text, step, ANY)).toEqual({ ok: false, reason: 'off_step' });
  });

  it('refuses negatives unless allowed, then keeps the sign', () => {
    expect(toUnits('-1', '0.1')).toEqual({ ok: false, reason: 'negative' });
    expect(toUnits('-0', '0.1', { allowZero: true })).toEqual({ ok: false, reason: 'negative' });
    expect(toUnits('-1', '0.1', { allowNegative: true })).toEqual({ ok: true, value: -10 });
    expect(toUnits('-0.15', '0.1', { allowNegative: true })).toEqual({ ok: false, reason: 'off_step' });
    // A sign problem is reported before the step problem: it is the more useful message.
    expect(toUnits('-0.15', '0.1')).toEqual({ ok: false, reason: 'negative' });
  });

  it('refuses zero unless allowed, and never yields -0', () => {
    expect(toUnits('0', '0.1')).toEqual({ ok: false, reason: 'zero' });
    expect(toUnits('0.000', '0.001')).toEqual({ ok: false, reason: 'zero' });
    const r = toUnits('-0.0', '0.1', ANY);
    expect(r.ok && Object.is(r.value, 0)).toBe(true);
  });

  it('stops at Number.MAX_SAFE_INTEGER units', () => {
    expect(toUnits('900719925474099.1', '0.1')).toEqual({ ok: true, value: MAX_SAFE });
    expect(toUnits('900719925474099.2', '0.1')).toEqual({ ok: false, reason: 'range' });
    expect(toUnits('9007199254740991', '1')).toEqual({ ok: true, value: MAX_SAFE });
    expect(toUnits('9007199254740992', '1')).toEqual({ ok: false, reason: 'range' });
    expect(toUnits('-9007199254740992', '1', ANY)).toEqual({ ok: false, reason: 'range' });
    expect(toUnits('1' + '0'.repeat(40), '1')).toEqual({ ok: false, reason: 'range' });
    // Units are in range even though units x step is not a safe integer.
    expect(toUnits('45035996273704955', '5')).toEqual({ ok: true, value: MAX_SAFE });
    expect(toUnits('45035996273704960', '5')).toEqual({ ok: false, reason: 'range' });
    expect(toUnits('45035996273704956', '5')).toEqual({ ok: false, reason: 'off_step' });
  });
});

describe('StepScale', () => {
  it('normalises the step and defaults the precision to the written decimals', () => {
    const s = createScale('0.10');
    expect([s.stepUnits, s.stepDecimals, s.precision]).toEqual([1, 1, 2]);
    const t = createScale('500');
    expect([t.stepUnits, t.stepDecimals, t.precision]).toEqual([500, 0, 0]);
    const u = createScale('2.50', 4);
    expect([u.stepUnits, u.stepDecimals, u.precision]).toEqual([25, 1, 4]);
  });

  it.each(['0', '0.000', '-1', '1e-3', '', '.1', 'abc', '0.0000000000000000001', '12345678901234567890'])(
    'refuses step %j',
    (step) => {
      expect(() => createScale(step)).toThrow(RangeError);
    },
  );

  it('refuses a precision that cannot show every multiple of the step', () => {
    expect(() => createScale('0.01', 1)).toThrow(RangeError);
    expect(() => createScale('0.1', 19)).toThrow(RangeError);
    expect(() => createScale('0.1', 1.5)).toThrow(RangeError);
    expect(createScale('0.10', 1).fromUnits(3)).toBe('0.3');
  });

  it('mustToUnits throws with the reason', () => {
    const s = new StepScale('0.5');
    expect(s.mustToUnits('2.5')).toBe(5);
    expect(() => s.mustToUnits('2.4')).toThrow(/off_step/);
  });
});

describe('fromUnits', () => {
  it.each([
    [123456, '0.1', 1, '12345.6'],
    [123456, '0.1', 3, '12345.600'],
    [3, '0.5', 2, '1.50'],
    [3, '5', 0, '15'],
    [3, '5', 2, '15.00'],
    [-5, '0.001', 3, '-0.005'],
    [0, '0.1', 1, '0.0'],
    [-0, '0.1', 1, '0.0'],
    [1, '0.00000001', 8, '0.00000001'],
    [MAX_SAFE, '5', 0, '45035996273704955'],
    [-MAX_SAFE, '0.25', 2, '-2251799813685247.75'],
  ] as const)('%d steps of %j at %d decimals is %j', (units, step, precision, text) => {
    expect(fromUnits(units, step, precision)).toBe(text);
  });

  it('uses the written decimals of the step by default and takes bigints', () => {
    expect(fromUnits(1, '0.10')).toBe('0.10');
    expect(fromUnits(10n ** 20n, '0.01')).toBe('1000000000000000000.00');
  });

  it.each([1.5, NaN, Infinity, MAX_SAFE + 1])('refuses %d units', (units) => {
    expect(() => fromUnits(units, '0.1', 1)).toThrow(RangeError);
  });
});

describe('formatFixed / parseFixed / unitsToNumber', () => {
  it.each([
    [12345n, 2, '123.45'],
    [12345, 2, '123.45'],
    [-5, 3, '-0.005'],
    [0, 2, '0.00'],
    [-0, 2, '0.00'],
    [5, 0, '5'],
    [1e21, 0, '1000000000000000000000'],
    [-(10n ** 30n) - 1n, 4, '-100000000000000000000000000.0001'],
  ] as const)('formatFixed(%s, %d) is %j', (units, decimals, text) => {
    expect(formatFixed(units, decimals)).toBe(text);
  });

  it('formatFixed refuses fractional units and bad decimals', () => {
    expect(() => formatFixed(1.5, 2)).toThrow(RangeError);
    expect(() => formatFixed(1, -1)).toThrow(RangeError);
    expect(() => formatFixed(1, 19)).toThrow(RangeError);
  });

  it('parseFixed is exact, also far beyond safe integers', () => {
    expect(parseFixed('1.5', 2)).toEqual({ ok: true, value: 150n });
    expect(parseFixed('1.505', 2)).toEqual({ ok: false, reason: 'off_step' });
    expect(parseFixed('123456789012345678901234.5', 1)).toEqual({ ok: true, value: 1234567890123456789012345n });
    expect(parseFixed('-0.01', 2)).toEqual({ ok: false, reason: 'negative' });
    expect(parseFixed('-0.01', 2, { allowNegative: true })).toEqual({ ok: true, value: -1n });
    expect(parseFixed('0', 2)).toEqual({ ok: false, reason: 'zero' });
    expect(parseFixed('1e2', 2)).toEqual({ ok: false, reason: 'format' });
  });

  it('unitsToNumber gives the double nearest the decimal', () => {
    expect(unitsToNumber(12345, 2)).toBe(123.45);
    expect(unitsToNumber(-1n, 8)).toBe(-1e-8);
    expect(unitsToNumber(57236180n, 3)).toBe(57236.18);
  });
});

describe('formatNumber', () => {
  it.each([
    [1.005, 2, '1.01'], // toFixed says 1.00
    [2.675, 2, '2.68'], // toFixed says 2.67
    [-1.005, 2, '-1.01'],
    [0.1 + 0.2, 2, '0.30'],
    [-0.001, 2, '0.00'],
    [-0, 2, '0.00'],
    [1e21, 2, '1000000000000000000000.00'],
    [1e-7, 8, '0.00000010'],
    [57236.1809045226, 2, '57236.18'],
    [42, 0, '42'],
    [0.5, 0, '1'],
    [-2.5, 0, '-3'],
  ] as const)('formatNumber(%d, %d) is %j', (value, decimals, text) => {
    expect(formatNumber(value, decimals)).toBe(text);
  });

  it('refuses non-finite values', () => {
    expect(() => formatNumber(NaN, 2)).toThrow(RangeError);
    expect(() => formatNumber(-Infinity, 2)).toThrow(RangeError);
  });
});

describe('rescaleFixed', () => {
  // 1.5, 2.5, -1.5, -2.5, 1.4, 1.6, -1.6 rounded to integers in every mode.
  const table: [bigint, Record<Rounding, bigint>][] = [
    [15n, { trunc: 1n, floor: 1n, ceil: 2n, half_up: 2n, half_even: 2n }],
    [25n, { trunc: 2n, floor: 2n, ceil: 3n, half_up: 3n, half_even: 2n }],
    [-15n, { trunc: -1n, floor: -2n, ceil: -1n, half_up: -2n, half_even: -2n }],
    [-25n, { trunc: -2n, floor: -3n, ceil: -2n, half_up: -3n, half_even: -2n }],
    [14n, { trunc: 1n, floor: 1n, ceil: 2n, half_up: 1n, half_even: 1n }],
    [16n, { trunc: 1n, floor: 1n, ceil: 2n, half_up: 2n, half_even: 2n }],
    [-16n, { trunc: -1n, floor: -2n, ceil: -1n, half_up: -2n, half_even: -2n }],
    [20n, { trunc: 2n, floor: 2n, ceil: 2n, half_up: 2n, half_even: 2n }],
  ];
  it.each(table)('%s tenths', (units, expected) => {
    for (const mode of Object.keys(expected) as Rounding[]) {
      expect([mode, rescaleFixed(units, 1, 0, mode)]).toEqual([mode, expected[mode]]);
    }
  });

  it('scales up exactly', () => {
    expect(rescaleFixed(15n, 1, 4, 'trunc')).toBe(15000n);
  });

  it('agrees with decimal.js in every mode', () => {
    const modes: [Rounding, Decimal.Rounding][] = [
      ['trunc', Decimal.ROUND_DOWN],
      ['floor', Decimal.ROUND_FLOOR],
      ['ceil', Decimal.ROUND_CEIL],
      ['half_up', Decimal.ROUND_HALF_UP],
      ['half_even', Decimal.ROUND_HALF_EVEN],
    ];
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        fc.integer({ min: 0, max: 18 }),
        (units, from, to) => {
          for (const [mode, dm] of modes) {
            const want = new D(units.toString()).div(new D(10).pow(from)).toDecimalPlaces(to, dm);
            const got = new D(rescaleFixed(units, from, to, mode).toString()).div(new D(10).pow(to));
            if (!got.eq(want)) return false;
          }
          return true;
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('notionalUnits', () => {
  it('multiplies price and quantity exactly', () => {
    const price = createScale('0.1');
    const qty = createScale('0.001');
    expect(notionalDecimals(price, qty)).toBe(4);
    expect(formatFixed(notionalUnits(600001, price, 1, qty), 4)).toBe('60.0001');
    // 90,071,992,547,409.9 x 9,007,199,254,740.991: far beyond 2^53 in units.
    const big = notionalUnits(MAX_SAFE, price, MAX_SAFE, qty);
    expect(big).toBe(BigInt(MAX_SAFE) * BigInt(MAX_SAFE));
  });

  it('agrees with decimal.js for random steps and units', () => {
    fc.assert(
      fc.property(arbStep, arbStep, fc.maxSafeNat(), fc.maxSafeNat(), (ps, qs, p, q) => {
        const price = createScale(ps);
        const qty = createScale(qs);
        const want = new D(price.fromUnits(p)).times(new D(qty.fromUnits(q)));
        const got = new D(formatFixed(notionalUnits(p, price, q, qty), notionalDecimals(price, qty)));
        return got.eq(want);
      }),
      { numRuns: 500 },
    );
  });
});

// A step: a positive integer 1..999 times 10^-d, sometimes written with trailing zeros.
const arbStep = fc
  .record({
    m: fc.integer({ min: 1, max: 999 }),
    d: fc.integer({ min: 0, max: 8 }),
    tz: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ m, d, tz }) => new D(m).div(new D(10).pow(d)).toFixed(d + tz));

// A decimal string of the wire grammar, up to 20 integer digits and 12 decimals.
const arbDecimalText = fc
  .record({
    neg: fc.boolean(),
    int: fc.bigInt({ min: 0n, max: 10n ** 20n }),
    frac: fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 12 }), {
      nil: undefined,
    }),
  })
  .map(({ neg, int, frac }) => (neg ? '-' : '') + int.toString() + (frac === undefined ? '' : '.' + frac));

describe('properties', () => {
  it('fromUnits then toUnits gives the units back, and decimal.js reads the same value', () => {
    fc.assert(
      fc.property(arbStep, fc.integer({ min: 0, max: 4 }), fc.maxSafeInteger(), (step, extra, units) => {
        const scale = createScale(step, createScale(step).precision + extra);
        const text = scale.fromUnits(units);
        expect(text).toBe(new D(units).times(new D(step)).toFixed(scale.precision));
        expect(scale.toUnits(text, ANY)).toEqual({ ok: true, value: units });
      }),
      { numRuns: 2000 },
    );
  });

  it('toUnits accepts exactly the multiples decimal.js finds, with the same quotient', () => {
    fc.assert(
      fc.property(arbStep, arbDecimalText, (step, text) => {
        const x = new D(text);
        const s = new D(step);
        const r = toUnits(text, step, ANY);
        if (!x.mod(s).isZero()) {
          expect(r).toEqual({ ok: false, reason: 'off_step' });
        } else {
          const q = x.div(s);
          if (q.abs().gt(MAX_SAFE)) expect(r).toEqual({ ok: false, reason: 'range' });
          else expect(r).toEqual({ ok: true, value: q.toNumber() || 0 });
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('an on-step value moved by less than one step is rejected as off_step', () => {
    fc.assert(
      fc.property(
        arbStep,
        fc.integer({ min: 0, max: 1e12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.double({ min: 0, max: 1, noNaN: true, minExcluded: true, maxExcluded: true }),
        (step, units, finer, frac) => {
          const s = new D(step);
          const decimals = createScale(step).stepDecimals + finer;
          // A nonzero offset strictly inside (0, step) on a finer grid.
          const offset = s.times(frac).toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
          fc.pre(offset.gt(0) && offset.lt(s));
          const text = s.times(units).plus(offset).toFixed(decimals);
          expect(new D(text).mod(s).isZero()).toBe(false);
          expect(toUnits(text, step)).toEqual({ ok: false, reason: 'off_step' });
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('parseFixed inverts formatFixed for any bigint', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 18 }), (units, d) => {
        const text = formatFixed(units, d);
        expect(text).toBe(new D(units.toString()).div(new D(10).pow(d)).toFixed(d));
        expect(parseFixed(text, d, ANY)).toEqual({ ok: true, value: units });
      }),
      { numRuns: 1000 },
    );
  });
});
