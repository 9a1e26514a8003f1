import { inject } from '@angular/core';
import { CanActivateFn, Router } from '@angular/router';
import { RecordsAdminClient } from '../../records/records-admin.client';

/** Admin pages need a (verified) superuser session; otherwise the sign-in form, then back here. */
export const superuserGuard: CanActivateFn = async (_route, state) => {
  const client = inject(RecordsAdminClient);
  const router = inject(Router);
  await client.verify();
  return client.signedIn()
    ? true
    : router.createUrlTree(['/_', 'login'], {
        queryParams: state.url === '/_' || state.url === '/_/' ? {} : { redirect: state.url },
      });
};

/** The sign-in form is for signed-out visitors only. */
export const signedOutGuard: CanActivateFn = async () => {
  const client = inject(RecordsAdminClient);
  await client.verify();
  return client.signedIn() ? inject(Router).createUrlTree(['/_']) : true;
};
