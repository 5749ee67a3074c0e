// Where the app keeps its data when no --data-dir is given: the OS user-data folder, the
// same place Electron's app.getPath('userData') points to for an app named perpdesk.
import { homedir } from 'node:os';
import { join } from 'node:path';

export const APP_NAME = 'perpdesk';

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_NAME);
}
