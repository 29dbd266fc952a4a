/** Entry of the analyst console: takes a `#key=` link's key, then renders the routes. */
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './api.js';
import { currentKey, followKeyFragments } from './auth.js';
import { router } from './router.js';
import './styles.css';

// Another key may come by a link: nothing read with the one before may be shown to it (and none is read without one).
followKeyFragments(() => (currentKey() === undefined ? queryClient.clear() : void queryClient.resetQueries()));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
