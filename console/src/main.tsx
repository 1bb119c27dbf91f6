/** Entry point of the console's single-page app (bundled by scripts/build-console.mjs). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { labelTableCells } from './cards.js';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  labelTableCells(root);
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
