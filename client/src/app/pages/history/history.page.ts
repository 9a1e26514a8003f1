import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatPaginator, PageEvent } from '@angular/material/paginator';
import { MatOption, MatSelect } from '@angular/material/select';
import { Router } from '@angular/router';
import { Api, getCatalog, listGenerations, listVoices } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { CatalogEntry, Generation, GenerationFilter, Voice } from '../../core/api-types';
import { languageName } from '../../core/format';
import { StudioDraftService } from '../../core/studio-draft';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { GenerationItem } from '../../shared/generation-item';

interface Filters {
  voice: string;
  model: string;
  language: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { voice: '', model: '', language: '', from: '', to: '' };

/** The user's generations: filters (voice, model, language, dates), pages, play, download, re-use, delete. */
@Component({
  selector: 'app-history-page',
  imports: [
    MatButton,
    MatFormField,
    MatLabel,
    MatInput,
    MatSelect,
    MatOption,
    MatPaginator,
    ErrorAlert,
    GenerationItem,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './history.page.html',
  styleUrl: './history.page.scss',
})
export class HistoryPage {
  private readonly api = inject(Api);
  private readonly router = inject(Router);
  private readonly draft = inject(StudioDraftService);
  protected readonly t = inject(STRINGS);

  protected readonly filters = signal<Filters>(EMPTY);
  protected readonly page = signal(1);
  protected readonly perPage = signal(20);
  protected readonly items = signal<Generation[] | null>(null);
  protected readonly total = signal(0);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly loading = signal(false);

  protected readonly catalog = signal<CatalogEntry[]>([]);
  protected readonly voices = signal<Voice[]>([]);
  protected readonly entries = computed(() => new Map(this.catalog().map((e) => [e.id, e])));
  protected readonly languages = computed(() => {
    const codes = new Set<string>();
    for (const e of this.catalog()) for (const l of e.languages) if (l !== '*') codes.add(l);
    for (const g of this.items() ?? []) if (g.language) codes.add(g.language.split('-')[0]);
    return [...codes]
      .map((code) => ({ code, label: languageName(code, this.t.locale) }))
      .sort((a, b) => a.label.localeCompare(b.label));
  });
  protected readonly filtered = computed(() => Object.values(this.filters()).some((v) => v !== ''));

  private request = 0;

  constructor() {
    void this.load();
    this.api.invoke(getCatalog).then(
      (c) => this.catalog.set([...c]),
      () => undefined,
    );
    this.api.invoke(listVoices, { scope: 'mine', perPage: 100 }).then(
      (p) => this.voices.set(p.items),
      () => undefined,
    );
  }

  async load(): Promise<void> {
    const id = ++this.request;
    const f = this.filters();
    const params: GenerationFilter = { page: this.page(), perPage: this.perPage() };
    if (f.voice) params.voice = f.voice;
    if (f.model) params.model = f.model;
    if (f.language) params.language = f.language;
    if (f.from) params.from = f.from;
    if (f.to) params.to = f.to;
    this.loading.set(true);
    this.error.set(null);
    try {
      const page = await this.api.invoke(listGenerations, params);
      if (id !== this.request) return;
      this.items.set(page.items);
      this.total.set(page.totalItems);
      if (page.items.length === 0 && page.page > 1 && page.totalItems > 0) {
        this.page.set(Math.max(1, page.totalPages));
        void this.load();
      }
    } catch (e) {
      if (id === this.request) this.error.set(await toApiError(e));
    } finally {
      if (id === this.request) this.loading.set(false);
    }
  }

  protected setFilter(patch: Partial<Filters>): void {
    this.filters.update((f) => ({ ...f, ...patch }));
    this.page.set(1);
    void this.load();
  }

  protected clear(): void {
    this.filters.set(EMPTY);
    this.page.set(1);
    void this.load();
  }

  protected onPage(event: PageEvent): void {
    this.page.set(event.pageIndex + 1);
    this.perPage.set(event.pageSize);
    void this.load();
  }

  protected reuse(generation: Generation): void {
    this.draft.set({
      text: generation.text,
      model: generation.model,
      voice: generation.voice || undefined,
      language: generation.language || undefined,
    });
    void this.router.navigate(['/']);
  }

  protected removed(): void {
    void this.load();
  }

  protected value(event: Event): string {
    return (event.target as HTMLInputElement).value;
  }
}
