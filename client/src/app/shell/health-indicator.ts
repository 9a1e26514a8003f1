import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { HealthService } from '../core/health.service';
import { STRINGS } from '../i18n/strings';

/** A coloured dot for the API health; the description is available to screen readers and on hover. */
@Component({
  selector: 'app-health-indicator',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <span class="dot" [class]="'dot ' + level()" role="img" [attr.aria-label]="label()" [title]="label()"></span>
  `,
  styles: `
    :host {
      display: inline-flex;
      align-items: center;
      padding: 0.5rem;
    }
    .dot {
      width: 0.75rem;
      height: 0.75rem;
      border-radius: 50%;
      background: var(--mat-sys-outline);
      box-shadow: 0 0 0 2px var(--mat-sys-surface-container);
    }
    .ok {
      background: #2e9d4f;
    }
    .degraded {
      background: #e0a100;
    }
    .down {
      background: var(--mat-sys-error);
    }
  `,
})
export class HealthIndicator {
  private readonly healthService = inject(HealthService);
  private readonly t = inject(STRINGS);

  protected readonly level = this.healthService.level;
  protected readonly label = computed(() => {
    const h = this.healthService.health();
    const online = h?.fleet?.online ?? 0;
    const total = h?.fleet?.total ?? 0;
    switch (this.level()) {
      case 'ok':
        return this.t.health.ok(online, total);
      case 'degraded':
        return h && h.database?.status !== 'ok'
          ? this.t.health.databaseDown
          : this.t.health.degraded(online, total);
      case 'down':
        return this.t.health.down;
      default:
        return this.t.health.checking;
    }
  });
}
