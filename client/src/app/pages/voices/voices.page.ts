import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatButtonToggle, MatButtonToggleGroup } from '@angular/material/button-toggle';
import { MatFormField, MatLabel, MatPrefix } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatPaginator, PageEvent } from '@angular/material/paginator';
import { MatOption, MatSelect } from '@angular/material/select';
import { Router, RouterLink } from '@angular/router';
import { Api, deleteVoice, getCatalog, listVoices } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { CatalogEntry, Voice, VoiceScope } from '../../core/api-types';
import { formatSeconds, languageName } from '../../core/format';
import { StudioDraftService } from '../../core/studio-draft';
import { STRINGS } from '../../i18n/strings';
import { ConfirmService } from '../../shared/confirm.service';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';

const SEARCH_DELAY_MS = 300;

/** Voices: the user's own and public ones, with search and filters (language, model, mine/public). */
@Component({
  selector: 'app-voices-page',
  imports: [
    MatButton,
    MatButtonToggleGroup,
    MatButtonToggle,
    MatFormField,
    MatLabel,
    MatPrefix,
    MatInput,
    MatSelect,
    MatOption,
    MatPaginator,
    RouterLink,
    ErrorAlert,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './voices.page.html',
  styleUrl: './voices.page.scss',
})
export class VoicesPage {
  private readonly api = inject(Api);
  private readonly router = inject(Router);
  private readonly confirm = inject(ConfirmService);
  private readonly draft = inject(StudioDraftService);
  protected readonly t = inject(STRINGS);

  protected readonly search = signal('');
  protected readonly language = signal('');
  protected readonly model = signal('');
  protected readonly scope = signal<VoiceScope>('all');
  protected readonly page = signal(1);
  protected readonly perPage = signal(24);

  protected readonly voices = signal<Voice[] | null>(null);
  protected readonly total = signal(0);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly deleteError = signal<{ id: string; error: ApiError } | null>(null);
  protected readonly catalog = signal<CatalogEntry[]>([]);
  protected readonly modelNames = computed(
    () => new Map(this.catalog().map((e) => [e.id, e.name])),
  );
  protected readonly speakingModels = computed(() =>
    this.catalog()
      .filter((e) => e.types.some((type) => type !== 'transcription'))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );
  protected readonly languages = computed(() => {
    const codes = new Set<string>();
    for (const e of this.speakingModels()) for (const l of e.languages) if (l !== '*') codes.add(l);
    return [...codes]
      .map((code) => ({ code, label: languageName(code, this.t.locale) }))
      .sort((a, b) => a.label.localeCompare(b.label));
  });
  protected readonly filtered = computed(
    () => !!(this.search() || this.language() || this.model() || this.scope() !== 'all'),
  );

  private request = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    void this.load();
    this.api.invoke(getCatalog).then(
      (c) => this.catalog.set([...c]),
      () => undefined,
    );
    inject(DestroyRef).onDestroy(() => clearTimeout(this.searchTimer));
  }

  async load(): Promise<void> {
    const id = ++this.request;
    this.error.set(null);
    try {
      const page = await this.api.invoke(listVoices, {
        search: this.search().trim() || undefined,
        language: this.language() || undefined,
        model: this.model() || undefined,
        scope: this.scope(),
        page: this.page(),
        perPage: this.perPage(),
      });
      if (id !== this.request) return;
      this.voices.set(page.items);
      this.total.set(page.totalItems);
    } catch (e) {
      if (id === this.request) this.error.set(await toApiError(e));
    }
  }

  protected onSearch(event: Event): void {
    this.search.set((event.target as HTMLInputElement).value);
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.reload(), SEARCH_DELAY_MS);
  }

  protected set(filter: 'language' | 'model', value: string): void {
    this[filter].set(value);
    this.reload();
  }

  protected setScope(scope: VoiceScope): void {
    this.scope.set(scope);
    this.reload();
  }

  private reload(): void {
    this.page.set(1);
    void this.load();
  }

  protected onPage(event: PageEvent): void {
    this.page.set(event.pageIndex + 1);
    this.perPage.set(event.pageSize);
    void this.load();
  }

  protected speak(voice: Voice): void {
    this.draft.set({ model: voice.model, voice: voice.id, language: voice.language || undefined });
    void this.router.navigate(['/']);
  }

  protected async remove(voice: Voice): Promise<void> {
    const d = this.t.voices.delete;
    const ok = await this.confirm.ask({
      title: d.title(voice.name),
      body: d.body,
      confirm: d.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    this.deleteError.set(null);
    try {
      await this.api.invoke(deleteVoice, { id: voice.id });
      await this.load();
    } catch (e) {
      this.deleteError.set({ id: voice.id, error: await toApiError(e) });
    }
  }

  protected languageLabel(code: string): string {
    return code ? languageName(code, this.t.locale) : this.t.voices.modelDefault;
  }

  protected initials(name: string): string {
    return name
      .split(/\s+/)
      .filter((w) => w)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('');
  }

  protected reference(voice: Voice): string {
    return voice.samples.length
      ? this.t.voices.samples(
          voice.samples.length,
          formatSeconds(voice.referenceDuration, this.t.locale),
        )
      : '';
  }
}
