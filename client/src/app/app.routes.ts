import { Routes } from '@angular/router';
import { adminGuard, signedInGuard, signedOutGuard } from './core/guards';

/**
 * Top-level routes. Every page is lazy-loaded from its own `<page>.routes.ts`, which keeps the
 * initial bundle to the shell. Add a page: create `pages/<name>/<name>.routes.ts`, add it here and,
 * if it belongs in the top bar, to shell/nav.ts.
 */
export const routes: Routes = [
  {
    path: '',
    pathMatch: 'full',
    canActivate: [signedInGuard],
    loadChildren: () => import('./pages/studio/studio.routes'),
  },
  {
    path: 'sign-in',
    canActivate: [signedOutGuard],
    loadChildren: () => import('./pages/auth/sign-in.routes'),
  },
  {
    path: 'sign-up',
    canActivate: [signedOutGuard],
    loadChildren: () => import('./pages/auth/sign-up.routes'),
  },
  {
    path: 'voices',
    canActivate: [signedInGuard],
    loadChildren: () => import('./pages/voices/voices.routes'),
  },
  {
    path: 'models',
    canActivate: [signedInGuard],
    loadChildren: () => import('./pages/models/models.routes'),
  },
  {
    path: 'history',
    canActivate: [signedInGuard],
    loadChildren: () => import('./pages/history/history.routes'),
  },
  {
    path: 'admin',
    canActivate: [adminGuard],
    loadChildren: () => import('./pages/admin/admin.routes'),
  },
  {
    path: 'profile',
    canActivate: [signedInGuard],
    loadChildren: () => import('./pages/profile/profile.routes'),
  },
  { path: 'forbidden', loadChildren: () => import('./pages/forbidden/forbidden.routes') },
  // The records admin panel (superusers only).
  { path: '_', loadChildren: () => import('./pages/records-admin/records-admin.routes') },
  { path: '**', loadChildren: () => import('./pages/not-found/not-found.routes') },
];
