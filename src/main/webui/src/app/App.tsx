import { useState } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../api/client';
import i18n from '../i18n';
import { ErrorBoundary } from './ErrorBoundary';
import { createQueryClient } from './queryClient';
import { router } from './router';

// When the session cannot be renewed, go to the login page and come back afterwards.
setUnauthorizedHandler(() => {
  const { pathname, search } = router.state.location;
  if (pathname === '/login') return;
  void router.navigate('/login', { replace: true, state: { from: pathname + search } });
});

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <I18nextProvider i18n={i18n}>
      <ErrorBoundary>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </ErrorBoundary>
    </I18nextProvider>
  );
}
