import { inject } from '@angular/core';
import { CanActivateFn, Router } from '@angular/router';
import { SessionService } from './session.service';

/** Pages for signed-in users: otherwise the sign-in page, then back here. */
export const signedInGuard: CanActivateFn = async (_route, state) => {
  const session = inject(SessionService);
  const router = inject(Router);
  await session.verify();
  if (session.signedIn()) return true;
  return router.createUrlTree(['/sign-in'], {
    queryParams: state.url === '/' ? {} : { redirect: state.url },
  });
};

/** Administration: administrators only; others see a page saying so. */
export const adminGuard: CanActivateFn = async (_route, state) => {
  const session = inject(SessionService);
  const router = inject(Router);
  await session.verify();
  if (!session.signedIn()) {
    return router.createUrlTree(['/sign-in'], { queryParams: { redirect: state.url } });
  }
  return session.isAdmin() ? true : router.createUrlTree(['/forbidden']);
};

/** Sign-in and sign-up are for signed-out visitors. */
export const signedOutGuard: CanActivateFn = async () => {
  const session = inject(SessionService);
  const router = inject(Router);
  await session.verify();
  return session.signedIn() ? router.createUrlTree(['/']) : true;
};

/** A redirect target from the query string, only when it is a path inside the dashboard. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/_'))
    return '/';
  if (target.startsWith('/sign-in') || target.startsWith('/sign-up')) return '/';
  return target;
}
