import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { createServices } from './lib/services.ts';
import { ServicesContext } from './lib/use-services.ts';
import './styles.css';

const services = createServices();
services.start();
// For e2e tests and the console: the live stores and SDK clients of this page.
(window as unknown as { __perpdesk?: unknown }).__perpdesk = services;

// The first render waits for the replay probe (one local request, 2 s at most), so a replay
// venue's banner row is there from the start instead of pushing the screen down later.
void services.replayProbe.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ServicesContext value={services}>
        <App />
      </ServicesContext>
    </StrictMode>,
  ),
);
