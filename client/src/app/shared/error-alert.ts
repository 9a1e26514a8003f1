import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { ApiError } from '../core/api-error';
import { STRINGS } from '../i18n/strings';
import { Icon } from './icon';

/** Shows an ApiError in plain words: the server's message, then one line per field problem. */
@Component({
  selector: 'app-error-alert',
  imports: [Icon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="alert" role="alert">
      <app-icon name="error" />
      <div>
        @if (heading()) {
          <p class="heading">{{ heading() }}</p>
        }
        <p>{{ message() }}</p>
        @if (fields().length) {
          <ul>
            @for (f of fields(); track f.field) {
              <li>
                <strong>{{ f.label }}:</strong> {{ f.message }}
              </li>
            }
          </ul>
        }
      </div>
    </div>
  `,
  styles: `
    .alert {
      display: flex;
      gap: 0.75rem;
      align-items: flex-start;
      padding: 0.75rem 1rem;
      border-radius: var(--mat-sys-corner-medium, 12px);
      background: var(--mat-sys-error-container);
      color: var(--mat-sys-on-error-container);
    }
    p {
      margin: 0 0 0.25rem;
    }
    .heading {
      font-weight: 600;
    }
    ul {
      margin: 0.25rem 0 0;
      padding-left: 1.25rem;
    }
  `,
})
export class ErrorAlert {
  private readonly t = inject(STRINGS);

  readonly error = input.required<ApiError>();
  readonly heading = input<string>('');

  protected readonly message = computed(() => {
    const e = this.error();
    if (e.message) return e.message;
    return e.status === 0 ? this.t.errors.network : this.t.errors.status(e.status);
  });

  protected readonly fields = computed(() =>
    this.error().fieldList.map((f) => ({ ...f, label: this.t.fields[f.field] ?? f.field })),
  );
}
