// The order book's and the trades' Size heading keeps to one line: a long base asset is named in
// its title, not in the heading (1000PEPE wrapped it and cut the ladder's rows).
import { describe, expect, it } from 'vitest';
import { sizeHeading } from '../../src-renderer/src/features/ladder/size-heading.ts';

describe('sizeHeading', () => {
  it('names a short base asset in the heading', () => {
    for (const base of ['BTC', 'ETH', 'DOGE', 'HYPE'])
      expect(sizeHeading(base)).toEqual({ text: `Size (${base})`, full: `Size (${base})` });
  });
  it('says "Size" alone for a long one, the whole name in its title', () => {
    expect(sizeHeading('1000PEPE')).toEqual({ text: 'Size', full: 'Size (1000PEPE)' });
    expect(sizeHeading('LUNA2')).toEqual({ text: 'Size', full: 'Size (LUNA2)' });
  });
  it('says "Size" before the pair is known', () => {
    expect(sizeHeading('')).toEqual({ text: 'Size', full: 'Size' });
  });
});
