// The layering of src-main/ (DESIGN section 2, README "Layout"), checked on the imports
// themselves: every relative import and every package import of every .ts file under src-main/
// and src-shared/, parsed with the TypeScript compiler (multi-line, `import type`, `export ...
// from`, `import()` alike).
//
//   shared   src-shared/                   shared
//   engine   src-main/engine/              engine, shared
//   risk     src-main/risk/                risk, shared
//   core     src-main/core/                core, engine, risk, shared
//   store    src-main/store/               store, core, engine, risk, shared
//                                          + type-only imports of a service's port file
//                                            (ports.ts, or a file under ports/, in accounts/,
//                                            trading/, market/ or data/): the adapters implement them
//   accounts src-main/accounts/            accounts, core, engine, risk, shared
//   trading  src-main/trading/             trading, core, engine, risk, shared
//   market   src-main/market/              market, trading, core, engine, risk, shared
//   data     src-main/data/                data, market, trading, core, engine, risk, shared
//   replay   src-main/replay/              replay, market, trading, data, core, engine, risk, shared
//   services src-main/services/            services, accounts, trading, market, data, replay, core,
//                                          engine, risk, shared (the Venue port the transport is handed)
//   api      src-main/api/                 api, services, accounts, trading, market, data, replay,
//                                          core, engine, risk, shared
//   entry    every other file of src-main/ (venue.ts, service.ts, headless.ts, electron-main.ts,
//            cli-args.ts, desktop/, preload/ ...): anything
//
// Packages: node:sqlite only in store and entry; fastify, @fastify/*, ws only in api and entry;
// electron only in entry. ALLOWED lists the imports that break a rule today and the branch that
// removes each; an entry no import uses any more fails the test too, so the list only shrinks.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

type Layer =
  | 'shared'
  | 'engine'
  | 'risk'
  | 'core'
  | 'store'
  | 'accounts'
  | 'trading'
  | 'market'
  | 'data'
  | 'replay'
  | 'services'
  | 'api'
  | 'entry';

const MAY_IMPORT: Record<Layer, readonly Layer[] | 'any'> = {
  shared: ['shared'],
  engine: ['engine', 'shared'],
  risk: ['risk', 'shared'],
  core: ['core', 'engine', 'risk', 'shared'],
  store: ['store', 'core', 'engine', 'risk', 'shared'],
  accounts: ['accounts', 'core', 'engine', 'risk', 'shared'],
  trading: ['trading', 'core', 'engine', 'risk', 'shared'],
  market: ['market', 'trading', 'core', 'engine', 'risk', 'shared'],
  data: ['data', 'market', 'trading', 'core', 'engine', 'risk', 'shared'],
  replay: ['replay', 'market', 'trading', 'data', 'core', 'engine', 'risk', 'shared'],
  services: ['services', 'accounts', 'trading', 'market', 'data', 'replay', 'core', 'engine', 'risk', 'shared'],
  api: ['api', 'services', 'accounts', 'trading', 'market', 'data', 'replay', 'core', 'engine', 'risk', 'shared'],
  entry: 'any',
};

const SERVICES: readonly Layer[] = ['accounts', 'trading', 'market', 'data'];

/** Which layers may import each package (by name or prefix); packages not listed are free. */
const PACKAGES: ReadonlyArray<[RegExp, readonly Layer[]]> = [
  [/^node:sqlite$/, ['store', 'entry']],
  [/^(fastify|ws|@fastify\/.*)$/, ['api', 'entry']],
  [/^electron$/, ['entry']],
];

/**
 * Imports that break a rule today, each with the branch that removes it. Paths are relative to
 * the repository root; the lead drops the entries when those branches are merged.
 */
const ALLOWED: ReadonlyArray<{ from: string; to: string; why: string }> = [];

interface ImportRef {
  /** The module specifier as written. */
  spec: string;
  typeOnly: boolean;
}

function importsOf(fileName: string, text: string): ImportRef[] {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const out: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const typeOnly =
        c !== undefined &&
        (c.isTypeOnly ||
          (c.name === undefined &&
            c.namedBindings !== undefined &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)));
      out.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      out.push({ spec: node.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      out.push({ spec: node.arguments[0].text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      out.push({ spec: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The layer of a repository-relative path (forward slashes), or null outside src-main/ and src-shared/. */
function layerOf(path: string): Layer | null {
  if (path.startsWith('src-shared/')) return 'shared';
  if (!path.startsWith('src-main/')) return null;
  const top = path.slice('src-main/'.length).split('/')[0];
  switch (top) {
    case 'engine':
    case 'risk':
    case 'core':
    case 'store':
    case 'accounts':
    case 'trading':
    case 'market':
    case 'data':
    case 'replay':
    case 'services':
    case 'api':
      return top;
    default:
      return 'entry';
  }
}

function isPortFile(path: string): boolean {
  const layer = layerOf(path);
  if (layer === null || !SERVICES.includes(layer)) return false;
  return path.endsWith('/ports.ts') || path.includes('/ports/');
}

interface Violation {
  from: string;
  to: string;
  rule: string;
}

/** Every import of `files` (repository-relative path -> source text) that breaks a rule. */
function violations(files: ReadonlyMap<string, string>): Violation[] {
  const out: Violation[] = [];
  for (const [from, text] of files) {
    const layer = layerOf(from);
    if (layer === null) continue;
    for (const imp of importsOf(from, text)) {
      if (imp.spec.startsWith('.')) {
        const to = join(dirname(from), imp.spec).split(sep).join('/');
        const target = layerOf(to);
        if (target === null) {
          out.push({ from, to, rule: `${layer} imports outside src-main/ and src-shared/` });
          continue;
        }
        const may = MAY_IMPORT[layer];
        if (may === 'any' || may.includes(target)) continue;
        if (layer === 'store' && imp.typeOnly && isPortFile(to)) continue;
        out.push({ from, to, rule: `${layer} may not import ${target}${imp.typeOnly ? ' (even type-only)' : ''}` });
      } else {
        for (const [re, layers] of PACKAGES) {
          if (re.test(imp.spec) && !layers.includes(layer))
            out.push({ from, to: imp.spec, rule: `${layer} may not import ${imp.spec}` });
        }
      }
    }
  }
  return out;
}

const ROOT = resolve(import.meta.dirname, '../..');

/** The .ts / .tsx files of src-main/ and src-shared/ (and of `more` folders), by repository-relative path. */
function sourceFiles(more: readonly string[] = []): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts'))
        files.set(relative(ROOT, full).split(sep).join('/'), readFileSync(full, 'utf8'));
    }
  };
  walk(join(ROOT, 'src-main'));
  walk(join(ROOT, 'src-shared'));
  for (const dir of more) walk(join(ROOT, dir));
  return files;
}

const key = (v: { from: string; to: string }): string => `${v.from} -> ${v.to}`;

/**
 * Import circles still in the tree, each with what removes it; like ALLOWED, an entry no circle
 * matches any more fails the test, so the list only shrinks.
 */
const ALLOWED_CIRCLES: ReadonlyArray<{ files: string; why: string }> = [];

/**
 * The import circles of `files`: each strongly connected set of two or more files, type-only
 * imports included (a type circle still ties the files' designs together), as a sorted list.
 */
function circles(files: ReadonlyMap<string, string>): string[] {
  const edges = new Map<string, string[]>();
  for (const [from, text] of files) {
    const to = importsOf(from, text)
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => join(dirname(from), i.spec).split(sep).join('/'))
      .filter((t) => files.has(t));
    edges.set(from, to);
  }
  // Tarjan's strongly connected components
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const set: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        set.push(w);
      } while (w !== v);
      if (set.length > 1) out.push(set.sort().join(', '));
    }
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out.sort();
}

/**
 * The files of src-main/ as their top-level folders: each folder one module whose imports are all
 * its files' (the imports inside it dropped), a top-level file its own module. A sweep job starts a
 * service (sweep/ above service.ts), so service.ts importing sweep/ for its page was such a circle.
 */
function asFolders(files: ReadonlyMap<string, string>): Map<string, string> {
  const unit = (path: string): string => {
    const parts = path.split('/');
    return parts[0] === 'src-main' && parts.length > 2 ? `src-main/${parts[1]}/index.ts` : path;
  };
  const out = new Map<string, string>();
  for (const [from, text] of files) {
    if (!from.startsWith('src-main/')) continue;
    const u = unit(from);
    const lines = importsOf(from, text)
      .filter((i) => i.spec.startsWith('.'))
      .map((i) => unit(join(dirname(from), i.spec).split(sep).join('/')))
      .filter((to) => to !== u && to.startsWith('src-main/'))
      .map((to) => `import '${relativeSpec(u, to)}';`);
    out.set(u, `${out.get(u) ?? ''}\n${lines.join('\n')}`);
  }
  return out;
}

/** `to` as an import specifier written in `from`. */
function relativeSpec(from: string, to: string): string {
  const r = relative(dirname(from), to).split(sep).join('/');
  return r.startsWith('.') ? r : `./${r}`;
}

describe('layers of src-main/', () => {
  it('no import runs from a lower layer to a higher one (beyond the allow-list)', () => {
    const files = sourceFiles();
    expect(files.size).toBeGreaterThan(100);
    const allowed = new Set(ALLOWED.map(key));
    const found = violations(files);
    expect(found.filter((v) => !allowed.has(key(v))).map((v) => `${key(v)}: ${v.rule}`)).toEqual([]);
    // an entry that no import needs any more must go (the list only shrinks)
    const used = new Set(found.map(key));
    expect(ALLOWED.filter((a) => !used.has(key(a))).map(key)).toEqual([]);
  });

  it('no import circle (beyond the allow-list), in the renderer and the e2e support too', () => {
    const files = sourceFiles(['src-renderer', 'e2e']);
    expect([...files.keys()].filter((f) => f.startsWith('src-renderer/')).length).toBeGreaterThan(100);
    const found = circles(files);
    const allowed = new Set(ALLOWED_CIRCLES.map((c) => c.files));
    expect(found.filter((c) => !allowed.has(c))).toEqual([]);
    expect(ALLOWED_CIRCLES.filter((c) => !found.includes(c.files)).map((c) => c.files)).toEqual([]);
  });

  it("no circle between src-main/'s folders and top-level files (a folder's files read as one)", () => {
    expect(circles(asFolders(sourceFiles()))).toEqual([]);
  });

  it('the circle finder finds circles, type-only ones too, and nothing else', () => {
    const files = new Map<string, string>([
      ['src-main/a/x.ts', "import { y } from './y.ts';"],
      ['src-main/a/y.ts', "import type { Z } from '../b/z.ts';"],
      ['src-main/b/z.ts', "export { x } from '../a/x.ts';"],
      ['src-main/b/w.ts', "import { z } from './z.ts';"],
      ['src-main/c/p.ts', "import { q } from './q.ts';"],
      ['src-main/c/q.ts', "const p = await import('./p.ts');"],
    ]);
    expect(circles(files)).toEqual([
      'src-main/a/x.ts, src-main/a/y.ts, src-main/b/z.ts',
      'src-main/c/p.ts, src-main/c/q.ts',
    ]);
  });

  it('the checker catches what the rules forbid', () => {
    const files = new Map<string, string>([
      [
        'src-main/store/a.ts',
        "import type { Candle } from '../market/candles.ts';\nimport type { CandleStore } from '../market/ports.ts';",
      ],
      ['src-main/store/b.ts', "import { x } from '../market/ports.ts';"],
      [
        'src-main/engine/c.ts',
        "import {\n  type Bracket,\n} from '../risk/tiers.ts';\nexport * from '../core/clock.ts';",
      ],
      [
        'src-main/trading/d.ts',
        "const m = await import('../api/app.ts');\nlet t: import('../market/clock.ts').VirtualClock;",
      ],
      [
        'src-main/api/e.ts',
        "import { parseCli } from '../cli-args.ts';\nimport type { Venue } from '../services/venue.ts';\nimport type { LocalVenue } from '../venue.ts';\nimport { DatabaseSync } from 'node:sqlite';",
      ],
      ['src-main/risk/f.ts', "import { formatFixed } from '../../src-shared/decimal.ts';"],
      [
        'src-main/replay/g.ts',
        "import { Exchange } from '../trading/exchange.ts';\nimport { buildApp } from '../api/app.ts';\nimport type { ServiceHandle } from '../service.ts';",
      ],
      ['src-main/data/h.ts', "import type { ReplayData } from '../replay/ports.ts';"],
      [
        'src-main/venue.ts',
        "import { openDatabase } from './store/database.ts';\nimport { DatabaseSync } from 'node:sqlite';",
      ],
    ]);
    expect(violations(files).map(key)).toEqual([
      'src-main/store/a.ts -> src-main/market/candles.ts',
      'src-main/store/b.ts -> src-main/market/ports.ts',
      'src-main/engine/c.ts -> src-main/risk/tiers.ts',
      'src-main/engine/c.ts -> src-main/core/clock.ts',
      'src-main/trading/d.ts -> src-main/api/app.ts',
      'src-main/trading/d.ts -> src-main/market/clock.ts',
      'src-main/api/e.ts -> src-main/cli-args.ts',
      'src-main/api/e.ts -> src-main/venue.ts',
      'src-main/api/e.ts -> node:sqlite',
      'src-main/replay/g.ts -> src-main/api/app.ts',
      'src-main/replay/g.ts -> src-main/service.ts',
      'src-main/data/h.ts -> src-main/replay/ports.ts',
    ]);
  });
});

/** A module of a feature folder that this many other features import is shared: it belongs in lib/ or layout/. */
const SHARED_BY = 3;
const FEATURES = 'src-renderer/src/features/';

/**
 * Feature modules that three or more other features import today, each with what moving it down
 * would take; like ALLOWED, an entry that no longer is one fails the test, so the list only shrinks.
 */
const ALLOWED_SHARED: ReadonlyArray<{ module: string; why: string }> = [
  {
    module: 'symbols/symbols-store.ts',
    why: "the pairs' store: the services build it beside the other features' stores",
  },
  {
    module: 'orders/order-labels.ts',
    why: "the order enums' names: the order tables own them; to lib/ with the history's words",
  },
  {
    module: 'order-entry/stop-order.ts',
    why: "a stop's words and checks, the order form's: the stops feature reuses them",
  },
  {
    module: 'order-entry/input-checks.ts',
    why: 'the tick / step checks of the order form, reused by the dialogs that amend',
  },
];

/** Feature modules imported by files of `SHARED_BY` or more other features: `feature/file.ts` -> the importing features. */
function sharedFeatureModules(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const by = new Map<string, Set<string>>();
  for (const [from, text] of files) {
    if (!from.startsWith(FEATURES)) continue;
    const own = from.slice(FEATURES.length).split('/')[0];
    for (const imp of importsOf(from, text)) {
      if (!imp.spec.startsWith('.')) continue;
      const to = join(dirname(from), imp.spec).split(sep).join('/');
      if (!to.startsWith(FEATURES)) continue;
      const module = to.slice(FEATURES.length);
      if (module.split('/')[0] === own) continue;
      by.set(module, (by.get(module) ?? new Set()).add(own));
    }
  }
  return new Map([...by].filter(([, f]) => f.size >= SHARED_BY).map(([m, f]) => [m, [...f].sort()]));
}

describe('the renderer’s features', () => {
  it('import what several of them share from lib/ or layout/, not from a sibling feature (beyond the allow-list)', () => {
    const shared = sharedFeatureModules(sourceFiles(['src-renderer']));
    const allowed = new Set(ALLOWED_SHARED.map((a) => a.module));
    expect([...shared].filter(([m]) => !allowed.has(m)).map(([m, f]) => `${m} <- ${f.join(', ')}`)).toEqual([]);
    expect(ALLOWED_SHARED.filter((a) => !shared.has(a.module)).map((a) => a.module)).toEqual([]);
  });
});
