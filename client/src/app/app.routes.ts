import { Routes } from '@angular/router';

/**
 * Top-level routes. Every page is lazy-loaded from its own `<page>.routes.ts`, which keeps the
 * initial bundle to the shell. Add a page: create `pages/<name>/<name>.routes.ts`, add it here and,
 * if it belongs in the top bar, to shell/nav.ts.
 */
export const routes: Routes = [
  { path: '', pathMatch: 'full', loadChildren: () => import('./pages/studio/studio.routes') },
  // Reserved for the records admin panel (superusers only); a placeholder for now.
  { path: '_', loadChildren: () => import('./pages/records-admin/records-admin.routes') },
  { path: '**', loadChildren: () => import('./pages/not-found/not-found.routes') },
];
