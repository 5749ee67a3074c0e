// One source for a pair's risk and funding figures on every surface: the transport (native routes,
// records, the Binance dialect) asks trading/pair-figures.ts for leverage brackets, maximum
// notional, maintenance rates, funding caps and schedules and the liquidation fee rate, and never
// imports the risk tables, the funding formula or the liquidation fee itself, so the native API, the dialect and the screen (which reads them
// from the native API) cannot drift apart. Checked on the import statements of every file.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** The risk modules whose figures the transport takes from trading/pair-figures.ts. */
const FIGURE_MODULES = /from\s+'[./]*risk\/(tiers|funding|liquidation-fee)\.ts'/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('pair figures come from trading/pair-figures.ts', () => {
  it.each(['src-main/api', 'src-renderer/src'])(
    'no file under %s imports risk/tiers, funding or liquidation-fee',
    (dir) => {
      const offenders = sources(join(ROOT, dir))
        .filter((f) => FIGURE_MODULES.test(readFileSync(f, 'utf8')))
        .map((f) => relative(ROOT, f));
      expect(offenders).toEqual([]);
    },
  );

  it('the check sees such an import', () => {
    expect(FIGURE_MODULES.test("import { maxNotionalFor } from '../../risk/tiers.ts';")).toBe(true);
    expect(FIGURE_MODULES.test("import { nextFundingTime } from '../../risk/funding.ts';")).toBe(true);
    expect(FIGURE_MODULES.test("import { LIQUIDATION_FEE_RATE } from '../../risk/liquidation-fee.ts';")).toBe(true);
    expect(FIGURE_MODULES.test("import { maxNotional } from '../../trading/pair-figures.ts';")).toBe(false);
  });
});
