// Once before the specs: the run's template data folder, a venue that has started once (its
// simulated history built) and stopped cleanly. Each fresh service of the run starts on a copy
// of it (service.ts), so the 13 or so services the specs start do not each build 30 days of
// history for 12 pairs. The folder is removed when the run ends.
import { rmSync } from 'node:fs';
import { startHeadless, TEMPLATE_ENV } from './service.ts';

export default async function globalSetup(): Promise<() => void> {
  const template = await startHeadless({ fresh: true, noAccount: true });
  await template.stop(true);
  // the workers are started after this and inherit the runner's environment
  process.env[TEMPLATE_ENV] = template.dataDir;
  return () => rmSync(template.dataDir, { recursive: true, force: true });
}
