// Play and step on a finished replay change nothing and answer the status as it is: finished and
// paused, in lockstep as in the free mode (a lockstep replay answered `play` with paused: false,
// which the next status read took back, while nothing played). A replay never goes back: a seek
// before its time is refused, changing nothing.
import { afterEach, expect, it } from 'vitest';
import type { ServiceHandle } from '../../src-main/service.ts';
import { SNAPSHOT_TIME, trxDepthService } from './trx-depth-service.ts';

const open: ServiceHandle[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function service(lockstep: boolean): Promise<ServiceHandle> {
  const { svc } = await trxDepthService({ lockstep });
  open.push(svc);
  return svc;
}

const act = async (url: string, body: unknown) => {
  const r = await fetch(`${url}/api/v1/replay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await r.json()) as { code: number; data: { paused: boolean; finished: boolean; time: number } };
};
const status = async (url: string) =>
  (
    (await (await fetch(`${url}/api/v1/replay`)).json()) as {
      data: { paused: boolean; finished: boolean; time: number };
    }
  ).data;

for (const lockstep of [true, false]) {
  it(`${lockstep ? 'lockstep' : 'free'}: play and step on a finished replay answer it finished and paused, time unchanged`, async () => {
    const svc = await service(lockstep);
    const { until } = (await status(svc.url)) as unknown as { until: number };
    const end = await act(svc.url, { action: 'seek', time: until });
    expect(end.data).toMatchObject({ finished: true, paused: true, time: until });
    const play = await act(svc.url, { action: 'play' });
    expect(play).toMatchObject({ code: 0, data: { finished: true, paused: true, time: until } });
    await new Promise((r) => setTimeout(r, 50));
    expect(await status(svc.url)).toMatchObject({ finished: true, paused: true, time: until });
    const step = await act(svc.url, { action: 'step', ms: 1000 });
    expect(step).toMatchObject({ code: 0, data: { finished: true, paused: true, time: until } });
    expect((await act(svc.url, { action: 'seek', time: SNAPSHOT_TIME + 2000 })).code).toBe(1001);
    expect(await status(svc.url)).toMatchObject({ finished: true, paused: true, time: until });
  });
}
