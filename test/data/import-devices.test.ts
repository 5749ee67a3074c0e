// An import names a device, a pipe or a socket: it has no end to read to. `POST
// /api/v1/datasets/import {"paths": ["/dev/zero"]}` was read for ever (the service's memory grew
// by tens of MB a second and every import after it waited behind it); now the path is refused as
// a bad one is, naming it, and a pipe inside a searched folder is not read (docs/data.md, Import).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandPaths } from '../../src-main/data/expand-paths.ts';
import { fixtureRows, KLINES_HEADER, tempDir, writeArchiveZip } from './archive-fixtures.ts';

describe('an import of something that is neither a file nor a folder', () => {
  it('a device named is refused, naming it', () => {
    expect(() => expandPaths(['/dev/zero'])).toThrow(
      '/dev/zero: not a file or folder (a device, pipe or socket cannot be imported)',
    );
  });

  it('a pipe named is refused; one in a searched folder is left out, the folder read', () => {
    const root = tempDir();
    const { zip } = writeArchiveZip(root, {
      market: 'spot',
      kind: 'klines',
      symbol: 'BTCUSDT',
      interval: '1h',
      date: '2021-05-16',
      csv: KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2021-05-16_to_2021-05-18.csv')[0],
    });
    const fifo = path.join(path.dirname(zip), 'BTCUSDT-1h-2021-05-17.csv');
    execFileSync('mkfifo', [fifo]);
    expect(() => expandPaths([fifo])).toThrow(`${fifo}: not a file or folder`);
    expect(expandPaths([root]).files).toEqual([zip]);
  });
});
