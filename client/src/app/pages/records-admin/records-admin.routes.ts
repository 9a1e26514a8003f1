import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { AdminHome } from './admin-home';
import { AdminLayout } from './admin-layout';
import { CollectionPage } from './collection.page';
import { CollectionsStore } from './collections.store';
import { signedOutGuard, superuserGuard } from './records-admin.guards';
import { SignInPage } from './sign-in.page';

const title: ResolveFn<string> = () => inject(STRINGS).recordsAdmin.title;
const signInTitle: ResolveFn<string> = () => inject(STRINGS).recordsAdmin.signIn.title;
const collectionTitle: ResolveFn<string> = (route) =>
  `${route.paramMap.get('collection') ?? ''} · ${inject(STRINGS).recordsAdmin.title}`;

/**
 * The records admin panel at /_/ (superusers only): /_/login, /_/ (collections) and
 * /_/collections/:collection (records; `filter`, `sort`, `page`, `perPage` in the query string).
 */
export default [
  { path: 'login', title: signInTitle, canActivate: [signedOutGuard], component: SignInPage },
  {
    path: '',
    canActivate: [superuserGuard],
    canActivateChild: [superuserGuard],
    providers: [CollectionsStore],
    component: AdminLayout,
    children: [
      { path: '', pathMatch: 'full', title, component: AdminHome },
      {
        path: 'collections/:collection',
        title: collectionTitle,
        component: CollectionPage,
        runGuardsAndResolvers: 'pathParamsChange',
      },
    ],
  },
] satisfies Routes;
