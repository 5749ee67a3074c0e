import { SymbolList } from './features/symbols/symbol-list.tsx';
import { createSymbolsStore } from './features/symbols/symbols-store.ts';
import { api, baseUrl } from './lib/connection.ts';

const symbolsStore = createSymbolsStore(api);

export function App() {
  return (
    <div className="app">
      <header className="topbar">
        <span className="brand">perpdesk</span>
        <span className="muted">local perpetual futures</span>
        <a className="docs-link" href={`${baseUrl()}/docs`} target="_blank" rel="noreferrer">
          API docs
        </a>
      </header>
      <main className="content">
        <SymbolList store={symbolsStore} baseUrl={baseUrl()} />
      </main>
    </div>
  );
}
