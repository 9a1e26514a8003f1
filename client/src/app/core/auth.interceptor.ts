import { HttpErrorResponse, HttpInterceptorFn } from '@angular/common/http';
import { inject } from '@angular/core';
import { Router } from '@angular/router';
import { catchError, throwError } from 'rxjs';
import { SessionService } from './session.service';

/** Whether a request goes to the Chorus API (the client is served by it, so API paths are relative). */
function isApiRequest(url: string): boolean {
  if (url.startsWith('/api/')) return true;
  try {
    const parsed = new URL(url, globalThis.location?.href);
    return parsed.origin === globalThis.location?.origin && parsed.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

/**
 * Attaches the session token (`Authorization: Bearer …`) to API requests, and turns a 401 into the end of the
 * session: the user is sent to sign in, and comes back to the page afterwards.
 */
export const authInterceptor: HttpInterceptorFn = (request, next) => {
  const session = inject(SessionService);
  const router = inject(Router);
  const token = session.token();
  const api = isApiRequest(request.url);
  const sent =
    api && token && !request.headers.has('Authorization')
      ? request.clone({ setHeaders: { Authorization: `Bearer ${token}` } })
      : request;
  return next(sent).pipe(
    catchError((error: unknown) => {
      if (api && error instanceof HttpErrorResponse && error.status === 401 && token) {
        session.expire();
        goToSignIn(router);
      }
      return throwError(() => error);
    }),
  );
};

/** Sends the user to the sign-in page, remembering where they were. */
export function goToSignIn(router: Router): void {
  const current = router.url;
  if (current.startsWith('/sign-in') || current.startsWith('/sign-up')) return;
  void router.navigate(['/sign-in'], {
    queryParams: current && current !== '/' ? { redirect: current } : {},
  });
}
