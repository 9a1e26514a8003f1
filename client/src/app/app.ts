import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { RouterLink, RouterLinkActive, RouterOutlet } from '@angular/router';
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

  protected readonly navItems = NAV_ITEMS;
  protected readonly versionText = computed(() => {
    const v = this.versionService.version();
    return v ? this.t.footer.version(v.name, v.version, v.apiVersion) : this.t.footer.versionUnknown;
  });

  constructor() {
    inject(HealthService).start();
    void this.versionService.load();
  }

  protected skipToMain(event: Event): void {
    event.preventDefault();
    document.getElementById('main')?.focus();
  }
}
