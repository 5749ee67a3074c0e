// Every named type a RestClient method (or one of its route groups: conditionals, datasets,
// sweeps) takes or returns is exported from the SDK's entry point, so a bot author can name it:
// read with the TypeScript checker from the method signatures themselves.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SDK = join(dirname(fileURLToPath(import.meta.url)), '../../../src-shared/sdk');
const ENTRY = join(SDK, 'index.ts');
/** The client classes whose public methods a bot calls. */
const CLASSES = ['RestClient', 'ConditionalOrders', 'DatasetRoutes', 'SweepRoutes'];

/** Names of project types (declared under src-shared/) a class's public methods name, by method. */
function namedTypes(program: ts.Program): Map<string, { decl: ts.Symbol; where: string }> {
  const checker = program.getTypeChecker();
  const out = new Map<string, { decl: ts.Symbol; where: string }>();
  const resolve = (s: ts.Symbol): ts.Symbol => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s);
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(SDK)) continue;
    for (const stmt of sf.statements) {
      if (!ts.isClassDeclaration(stmt) || !stmt.name || !CLASSES.includes(stmt.name.text)) continue;
      for (const m of stmt.members) {
        if (!ts.isMethodDeclaration(m) || !m.name || !ts.isIdentifier(m.name)) continue;
        const mods = ts.getCombinedModifierFlags(m);
        if (mods & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) continue;
        const visit = (n: ts.Node): void => {
          if (ts.isTypeReferenceNode(n)) {
            const sym = checker.getSymbolAtLocation(n.typeName);
            const decl = sym && resolve(sym);
            const file = decl?.declarations?.[0]?.getSourceFile().fileName ?? '';
            if (decl && !(decl.flags & ts.SymbolFlags.TypeParameter) && file.includes('/src-shared/'))
              out.set(decl.name, { decl, where: `${stmt.name!.text}.${(m.name as ts.Identifier).text}` });
          }
          ts.forEachChild(n, visit);
        };
        for (const p of m.parameters) if (p.type) visit(p.type);
        if (m.type) visit(m.type);
      }
    }
  }
  return out;
}

describe('sdk/index.ts types', () => {
  it('exports every type a client method takes or returns', () => {
    const program = ts.createProgram([ENTRY], {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    });
    const checker = program.getTypeChecker();
    const entry = checker.getSymbolAtLocation(program.getSourceFile(ENTRY)!)!;
    const exported = new Set(
      checker.getExportsOfModule(entry).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s)),
    );
    const used = namedTypes(program);
    // a sanity floor: the walk sees the signatures (the record, query and request types)
    expect([...used.keys()]).toEqual(
      expect.arrayContaining(['OrdersPage', 'MarginHistoryQuery', 'SimChange', 'ReplayReport', 'AdminAccount']),
    );
    // The REST depth record is not exported by name: the book's own DepthSnapshot (index.ts) takes it.
    const missing = [...used]
      .filter(([name, t]) => !exported.has(t.decl) && name !== 'DepthSnapshot')
      .map(([name, t]) => `${name} (${t.where})`);
    expect(missing).toEqual([]);
  });
});
