/** Entry of the analyst console: takes a `#key=` link's key, then renders the routes. */
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { queryClient } from './api.js';
import { takeKeyFromFragment } from './auth.js';
import { router } from './router.js';
import './styles.css';

takeKeyFromFragment();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
