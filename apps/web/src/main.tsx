// Before anything builds a schema: no eval under the Content-Security-Policy.
import '@koma/domain/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './fonts.ts';
import './styles/base.css';
import { i18n } from './i18n/index.ts';
import { SessionProvider } from './session/SessionProvider.tsx';
import { App } from './App.tsx';

document.documentElement.lang = i18n.language;

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <SessionProvider>
      <App />
    </SessionProvider>
  </StrictMode>,
);
