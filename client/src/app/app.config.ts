import {
  ApplicationConfig,
  provideBrowserGlobalErrorListeners,
  provideZonelessChangeDetection,
} from '@angular/core';
import { provideHttpClient, withFetch, withInterceptors } from '@angular/common/http';
import {
  TitleStrategy,
  provideRouter,
  withComponentInputBinding,
  withInMemoryScrolling,
} from '@angular/router';
import { provideApiConfiguration } from './api';
import { authInterceptor } from './core/auth.interceptor';
import { ChorusTitleStrategy } from './core/title-strategy';
import { routes } from './app.routes';

/** Root URL of the API. Generated paths already start with /api, and the client is served by the API. */
const API_ROOT_URL = '';

export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZonelessChangeDetection(),
    provideHttpClient(withFetch(), withInterceptors([authInterceptor])),
    provideApiConfiguration(API_ROOT_URL),
    provideRouter(
      routes,
      withComponentInputBinding(),
      withInMemoryScrolling({ scrollPositionRestoration: 'enabled' }),
    ),
    { provide: TitleStrategy, useClass: ChorusTitleStrategy },
  ],
};
