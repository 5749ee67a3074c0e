// The Node the service needs: 24 or newer (node:sqlite, TypeScript type stripping). The machines'
// own `node` may be older (Node 20 here); `npm run serve` and `npm start` run the Node 24 of the
// project's node_modules (the node@24 devDependency: npm puts node_modules/.bin first on PATH),
// `node scripts/serve.mjs` runs whatever `node` is. Before, an older Node got as far as
// importing the service and failed with a raw ERR_UNKNOWN_BUILTIN_MODULE: node:sqlite.

/** The major version the service needs. */
export const NODE_MAJOR = 24;

/** Why `version` (process.versions.node) cannot run the service and what to run instead, or null. */
export function nodeVersionProblem(version, execPath, script) {
  const major = Number(String(version).split('.')[0]);
  if (major >= NODE_MAJOR) return null;
  return (
    `perpdesk: needs Node ${NODE_MAJOR} or newer (node:sqlite); this is Node ${version} (${execPath}). ` +
    `Run \`npm run ${script} -- [options]\`: npm runs the project's Node ${NODE_MAJOR} (node_modules/.bin/node, ` +
    `the node@${NODE_MAJOR} devDependency; \`npm install\` fetches it), or \`node_modules/.bin/node scripts/${script}.mjs\``
  );
}

/** Exits with code 1 and the reason when this Node cannot run the service. */
export function requireNode(script) {
  const problem = nodeVersionProblem(process.versions.node, process.execPath, script);
  if (problem === null) return;
  console.error(problem);
  process.exit(1);
}
