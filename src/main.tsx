/** The page's entry point: global styles, the React root and the offline service worker. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import './app/app.css';
import { prewarmKernelWorker } from './app/kernelFactory';
import { routeFromUrl } from './app/routing';
import { registerServiceWorker } from './pwa/register';

// A page that will open a notebook starts loading its kernel worker now (kernelFactory.ts).
if (routeFromUrl(new URL(window.location.href)).page !== 'home') prewarmKernelWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerServiceWorker();
