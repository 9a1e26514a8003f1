import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { RouterLink } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { CollectionsStore } from './collections.store';

/** /_/ : the collections as cards (type, field count, records). */
@Component({
  selector: 'app-records-admin-home',
  imports: [RouterLink],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h2>{{ t.home.heading }}</h2>
    <p class="intro">{{ t.home.intro }}</p>
    <ul class="cards">
      @for (c of store.collections() ?? []; track c.id) {
        <li>
          <a class="card" [routerLink]="['/_', 'collections', c.name]">
            <span class="name">{{ c.name }}</span>
            <span class="meta">
              {{ c.type === 'auth' ? t.home.authCollection : t.home.baseCollection }}
              @if (c.system) {
                · {{ t.home.system }}
              }
            </span>
            <span class="count">{{ t.recordCount(c.recordCount) }}</span>
          </a>
        </li>
      }
    </ul>
  `,
  styles: `
    .intro {
      margin: 0 0 1rem;
      color: var(--mat-sys-on-surface-variant);
    }
    .cards {
      list-style: none;
      margin: 0;
      padding: 0;
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr));
      gap: 0.75rem;
    }
    .card {
      display: flex;
      flex-direction: column;
      gap: 0.25rem;
      padding: 1rem;
      border-radius: var(--mat-sys-corner-medium);
      border: 1px solid var(--mat-sys-outline-variant);
      background: var(--mat-sys-surface-container-low);
      color: var(--mat-sys-on-surface);
      text-decoration: none;
      &:hover {
        background: var(--mat-sys-surface-container);
      }
    }
    .name {
      font: var(--mat-sys-title-medium);
    }
    .meta {
      font: var(--mat-sys-body-small);
      color: var(--mat-sys-on-surface-variant);
    }
    .count {
      font: var(--mat-sys-label-large);
      color: var(--mat-sys-primary);
    }
  `,
})
export class AdminHome {
  protected readonly t = inject(STRINGS).recordsAdmin;
  protected readonly store = inject(CollectionsStore);
}
