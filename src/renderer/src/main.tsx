// First: zod must be jitless before any schema exists (zod-config.ts).
import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { LocaleRoot } from './format/LocaleRoot';
import { KeyboardShortcuts } from './keyboard/KeyboardShortcuts';
import { startStores } from './stores/start';
import './styles/index.css';

// Stores talk to the core from outside React, so StrictMode's double effects never double a call.
startStores();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <LocaleRoot>
      <App />
      <KeyboardShortcuts />
    </LocaleRoot>
  </StrictMode>,
);
