// Pausing the simulated market for a test (POST /api/v1/sim is loopback-only, as the tests are).
import { expect } from 'playwright/test';

/**
 * Pauses or resumes the simulator. A pause stops the market clock at once, but the simulation
 * still runs the steps up to that moment on its next driver tick (it catches up in bursts, most
 * of all right after a start), and those steps trade; so a pause returns only once the
 * simulation has reached the stopped clock, after which nothing moves.
 */
export async function setPaused(url: string, paused: boolean): Promise<void> {
  const r = await fetch(`${url}/api/v1/sim`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ paused }),
  });
  expect(r.status).toBe(200);
  if (!paused) return;
  await expect
    .poll(
      async () => {
        const body = (await (await fetch(`${url}/api/v1/sim`)).json()) as {
          data: { market_time: number; sim_time: number; step_ms: number };
        };
        const v = body.data;
        return v.sim_time + v.step_ms > v.market_time;
      },
      { message: 'the simulation catches up with the paused clock' },
    )
    .toBe(true);
}
