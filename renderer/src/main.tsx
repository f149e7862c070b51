// Renderer entry. The routes and screens arrive with the renderer issues; this shell proves the
// build and the transport.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRODUCT_NAME } from '../../shared/constants';

function App() {
  return (
    <main>
      <h1>{PRODUCT_NAME}</h1>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
