// `npm run serve -- [options]`: build if needed, then run the headless service in this process.
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded();
await import('../out/main/headless.js');
