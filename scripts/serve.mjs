// `npm run serve -- [options]`: build if needed, then run the headless service in this process.
import { buildIfNeeded } from './build-if-needed.mjs';
import { requireNode } from './node-version.mjs';

requireNode('serve'); // before anything is built or imported
buildIfNeeded();
await import('../out/main/headless.js');
