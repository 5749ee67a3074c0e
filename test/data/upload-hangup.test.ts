// An upload whose client hangs up before its answer (the Data dialog's Cancel, a closed tab, an
// aborted SDK call) is stopped: the file is refused, nothing of it kept. It was imported whole,
// for no one, and a body cut off half-way was logged as an 'unhandled error' (docs/data.md).
import { request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ImportResult } from '../../src-main/data/dataset-service.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { fixtureRows, KLINES_HEADER } from './archive-fixtures.ts';

let t: TestApp;
let port: number;
const serverSockets: Socket[] = [];

beforeAll(async () => {
  t = await makeApp({ simulate: false });
  t.app.server.on('connection', (s: Socket) => serverSockets.push(s));
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

it('a client that hangs up once its upload is in stops its import: nothing of the file is kept', async () => {
  const csv = KLINES_HEADER + '\n' + fixtureRows('binance_spot_BTCUSDT_1h_2023-03-24_outage_gap.csv').join('\n');
  const datasets = t.venue.datasets;
  const importFiles = datasets.importFiles.bind(datasets);
  let imported: Promise<ImportResult[]> | null = null;
  const client = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/datasets/import?name=BTCUSDT-1h-2023-03-24.csv&market=spot',
    headers: { 'content-type': 'text/csv' },
  });
  client.on('error', () => undefined);
  const called = new Promise<void>((resolve) => {
    // the whole body is in: the client hangs up, and the import starts once the service has seen it go
    datasets.importFiles = (paths, opts) => {
      const server = serverSockets[serverSockets.length - 1];
      const gone = new Promise<void>((r) => server.once('close', () => r()));
      client.destroy();
      imported = gone.then(() => importFiles(paths, opts));
      resolve();
      return imported;
    };
  });
  client.end(csv);
  await called;
  const [result] = await imported!;
  expect(result).toMatchObject({ ok: false, status: 'refused', datasetId: null, rows: 0 });
  expect(result.error).toMatch(/interrupted \(the client hung up\); nothing of this file was imported$/);
  expect(datasets.list()).toEqual([]);
});
