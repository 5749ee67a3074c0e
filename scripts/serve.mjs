// `npm run serve -- [options]`: build if needed, then run the headless service in this process.
import { buildIfNeeded } from './build-if-needed.mjs';
import { requireNode } from './node-version.mjs';

requireNode('serve'); // before anything is built or imported
// the options first (the sources' own parser, cheap): --help or a typo answers at once, not after
// a build of out/ (before, a bad option could cost a full electron-vite build first). What only
// the service can check (the data folder, the port) it checks as it starts.
const { CliError, parseCli, USAGE } = await import('../src-main/cli-args.ts');
try {
  if (parseCli(process.argv.slice(2)).help) {
    console.log(USAGE);
    process.exit(0);
  }
} catch (err) {
  if (!(err instanceof CliError)) throw err;
  console.error(`perpdesk: ${err.message}`);
  process.exit(2);
}
buildIfNeeded();
await import('../out/main/headless.js');
