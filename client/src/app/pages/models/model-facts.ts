import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { CatalogEntry } from '../../core/api-types';
import { formatBytes, languageName } from '../../core/format';
import { STRINGS } from '../../i18n/strings';

/** The facts line of a model: hardware, license, languages, size. */
@Component({
  selector: 'app-model-facts',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <ul class="facts" [attr.aria-label]="t.models.facts.label">
      @for (fact of facts(); track fact.label) {
        <li>
          <span class="visually-hidden">{{ fact.label }}: </span>{{ fact.value }}
        </li>
      }
    </ul>
  `,
  styles: `
    .facts {
      display: flex;
      flex-wrap: wrap;
      gap: 0 0.5rem;
      margin: 0;
      padding: 0;
      list-style: none;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-medium);
    }
    li + li::before {
      content: '·';
      margin-right: 0.5rem;
      color: var(--mat-sys-outline);
    }
  `,
})
export class ModelFacts {
  protected readonly t = inject(STRINGS);
  readonly entry = input.required<CatalogEntry>();

  protected readonly facts = computed(() => {
    const e = this.entry();
    const t = this.t;
    const f = t.models.facts;
    const hardware =
      e.hardware === 'gpu' ? (e.minVram ? f.gpuVram(e.minVram) : t.common.gpu) : t.common.cpu;
    const languages = e.languages.includes('*')
      ? t.common.allLanguages
      : e.languages.map((code) => languageName(code, t.locale)).join(', ');
    const size = e.embedded || e.size === 0 ? t.common.builtIn : formatBytes(e.size, t.locale);
    return [
      { label: f.hardware, value: hardware },
      { label: f.license, value: e.license },
      { label: f.languages, value: languages },
      { label: f.size, value: size },
    ];
  });
}
