import {
  ChangeDetectionStrategy,
  Component,
  computed,
  effect,
  inject,
  untracked,
} from '@angular/core';
import { Router, RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
import { goToSignIn } from './core/auth.interceptor';
import { SessionService } from './core/session.service';
import { HealthService } from './core/health.service';
import { ThemeService } from './core/theme.service';
import { VersionService } from './core/version.service';
import { STRINGS } from './i18n/strings';
import { Icon } from './shared/icon';
import { HealthIndicator } from './shell/health-indicator';
import { NAV_ITEMS } from './shell/nav';

/** Application shell: top bar (brand, navigation, health, theme), routed page, footer. */
@Component({
  selector: 'app-root',
  imports: [RouterOutlet, RouterLink, RouterLinkActive, Icon, HealthIndicator],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './app.html',
  styleUrl: './app.scss',
})
export class App {
  protected readonly t = inject(STRINGS);
  protected readonly theme = inject(ThemeService);
  private readonly versionService = inject(VersionService);

  protected readonly session = inject(SessionService);
  private readonly router = inject(Router);

  protected readonly navItems = computed(() =>
    NAV_ITEMS.filter(
      (item) =>
        !item.access ||
        (item.access === 'user' && this.session.signedIn()) ||
        (item.access === 'admin' && this.session.isAdmin()),
    ),
  );
  protected readonly versionText = computed(() => {
    const v = this.versionService.version();
    return v
      ? this.t.footer.version(v.name, v.version, v.apiVersion)
      : this.t.footer.versionUnknown;
  });

  constructor() {
    inject(HealthService).start();
    void this.versionService.load();
    void this.session.verify();
    // Signed out elsewhere (another tab, an expired token): leave the signed-in pages.
    let wasSignedIn = this.session.signedIn();
    effect(() => {
      const signedIn = this.session.signedIn();
      // An explicit sign-out navigates by itself (without a way back).
      const ended = untracked(() => this.session.ended());
      if (wasSignedIn && !signedIn && ended !== 'signedOut' && !this.router.url.startsWith('/_')) {
        goToSignIn(this.router);
      }
      wasSignedIn = signedIn;
    });
  }

  protected signOut(): void {
    this.session.signOut();
    void this.router.navigate(['/sign-in']);
  }

  protected skipToMain(event: Event): void {
    event.preventDefault();
    document.getElementById('main')?.focus();
  }
}
