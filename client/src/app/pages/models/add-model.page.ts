import { NgTemplateOutlet } from '@angular/common';
import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  input,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { Router, RouterLink } from '@angular/router';
import { debounceTime } from 'rxjs';
import {
  Api,
  cancelJob,
  getCatalog,
  listInferenceServers,
  listInstalledModels,
  pullModel,
} from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import {
  CatalogEntry,
  InferenceServer,
  Job,
  MODEL_EVENTS_PATH,
  ModelEvent,
} from '../../core/api-types';
import { formatBytes, languageName } from '../../core/format';
import { JobsStore, isJobFinished } from '../../core/jobs.store';
import { ServerEvents } from '../../core/server-events';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';
import { JobProgress } from './job-progress';
import { ModelFacts } from './model-facts';
import {
  PURPOSES,
  Purpose,
  RankedCollection,
  RankedEntry,
  localeOf,
  onlineWorkers,
  qualityOf,
  rankForPurpose,
  speakerOf,
} from './model-logic';

interface CollectionFilter {
  language: string;
  quality: string;
  speaker: string;
}

const NO_FILTER: CollectionFilter = { language: '', quality: '', speaker: '' };

/**
 * The add-model assistant (admins): asks what the model is for, then offers the catalog entries for that purpose,
 * ranked (recommended first, then those an online worker can run; never legacy ones). Voice collections (Piper)
 * are one filterable list. Install starts a pull and follows it live through the jobs stream.
 */
@Component({
  selector: 'app-add-model-page',
  imports: [
    NgTemplateOutlet,
    MatButton,
    MatFormField,
    MatLabel,
    MatInput,
    MatSelect,
    MatOption,
    RouterLink,
    ErrorAlert,
    Icon,
    JobProgress,
    ModelFacts,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './add-model.page.html',
  styleUrl: './add-model.page.scss',
})
export class AddModelPage {
  private readonly api = inject(Api);
  private readonly router = inject(Router);
  private readonly jobsStore = inject(JobsStore);
  protected readonly t = inject(STRINGS);

  /** Purpose from the query string (`?purpose=preset`). */
  readonly purposeParam = input<string>('', { alias: 'purpose' });

  protected readonly purposes = PURPOSES;
  protected readonly catalog = signal<CatalogEntry[] | null>(null);
  protected readonly servers = signal<InferenceServer[]>([]);
  protected readonly installedIds = signal<ReadonlySet<string>>(new Set());
  protected readonly loadError = signal<ApiError | null>(null);

  private readonly chosen = signal<Purpose | null>(null);
  protected readonly purpose = computed<Purpose | null>(() => {
    const chosen = this.chosen();
    if (chosen) return chosen;
    const param = this.purposeParam();
    return (PURPOSES as readonly string[]).includes(param) ? (param as Purpose) : null;
  });

  protected readonly online = computed(() => onlineWorkers(this.servers()));
  protected readonly ranked = computed(() => {
    const purpose = this.purpose();
    const catalog = this.catalog();
    return purpose && catalog ? rankForPurpose(catalog, purpose, this.servers()) : [];
  });
  protected readonly counts = computed(() => {
    const catalog = this.catalog() ?? [];
    const counts = {} as Record<Purpose, number>;
    for (const p of PURPOSES)
      counts[p] = catalog.filter((e) => !e.legacy && e.types.includes(p)).length;
    return counts;
  });

  /** Job ids started from this page, per model. */
  private readonly started = signal<ReadonlyMap<string, readonly string[]>>(new Map());
  protected readonly starting = signal<ReadonlySet<string>>(new Set());
  protected readonly installErrors = signal<ReadonlyMap<string, ApiError>>(new Map());
  protected readonly filters = signal<ReadonlyMap<string, CollectionFilter>>(new Map());

  constructor() {
    void this.load();
    const destroyRef = inject(DestroyRef);
    destroyRef.onDestroy(this.jobsStore.attach());
    const events = inject(ServerEvents)
      .stream<ModelEvent>(MODEL_EVENTS_PATH)
      .pipe(debounceTime(250))
      .subscribe(() => void this.loadInstalled());
    destroyRef.onDestroy(() => events.unsubscribe());
  }

  async load(): Promise<void> {
    this.loadError.set(null);
    try {
      const [catalog, servers] = await Promise.all([
        this.api.invoke(getCatalog),
        this.api.invoke(listInferenceServers),
        this.loadInstalled(),
      ]);
      this.servers.set(servers);
      this.catalog.set([...catalog]);
    } catch (e) {
      this.loadError.set(await toApiError(e));
    }
  }

  private async loadInstalled(): Promise<void> {
    const installed = await this.api.invoke(listInstalledModels);
    this.installedIds.set(new Set(installed.map((m) => m.id)));
  }

  protected choose(purpose: Purpose): void {
    this.chosen.set(purpose);
    void this.router.navigate([], { queryParams: { purpose }, replaceUrl: true });
  }

  protected purposeText(purpose: Purpose): { title: string; description: string } {
    return this.t.assistant.purposes[purpose];
  }

  protected isInstalled(entry: CatalogEntry): boolean {
    return entry.embedded === true || this.installedIds().has(entry.id);
  }

  /** The jobs to show for a model: those started here, and any other still running. */
  protected jobsFor(entry: CatalogEntry): Job[] {
    const mine = this.started().get(entry.id) ?? [];
    return this.jobsStore
      .jobs()
      .filter((job) => job.model === entry.id && (mine.includes(job.id) || !isJobFinished(job)));
  }

  protected installing(entry: CatalogEntry): boolean {
    return this.starting().has(entry.id) || this.jobsFor(entry).some((job) => !isJobFinished(job));
  }

  protected finishedOk(entry: CatalogEntry): boolean {
    const jobs = this.jobsFor(entry);
    return jobs.length > 0 && jobs.every((job) => job.status === 'complete');
  }

  protected runnersText(item: RankedEntry): string {
    const a = this.t.assistant;
    if (item.runners.length) {
      return a.runsOn(
        item.runners.map((s) => `${s.name} (${this.t.common.device(s.device)})`).join(', '),
      );
    }
    if (this.online().length === 0) return a.noWorkerOnline;
    return item.entry.hardware === 'gpu' ? a.needsGpu(item.entry.minVram ?? 0) : a.noWorkerOnline;
  }

  protected async install(entry: CatalogEntry): Promise<void> {
    if (this.installing(entry)) return;
    this.starting.update((s) => new Set(s).add(entry.id));
    this.installErrors.update((m) => {
      const next = new Map(m);
      next.delete(entry.id);
      return next;
    });
    try {
      const result = await this.api.invoke(pullModel, { id: entry.id, body: {} });
      this.started.update((m) =>
        new Map(m).set(
          entry.id,
          result.jobs.map((j) => j.id),
        ),
      );
    } catch (e) {
      const error = await toApiError(e);
      this.installErrors.update((m) => new Map(m).set(entry.id, error));
    } finally {
      this.starting.update((s) => {
        const next = new Set(s);
        next.delete(entry.id);
        return next;
      });
    }
  }

  protected async cancel(job: Job): Promise<void> {
    try {
      this.jobsStore.upsert(await this.api.invoke(cancelJob, { id: job.id }));
    } catch {
      // The stream shows the job's real state.
    }
  }

  // --- voice collections --------------------------------------------------------------------------

  protected filterOf(collection: RankedCollection): CollectionFilter {
    return this.filters().get(collection.backend) ?? NO_FILTER;
  }

  protected setFilter(collection: RankedCollection, patch: Partial<CollectionFilter>): void {
    this.filters.update((m) =>
      new Map(m).set(collection.backend, { ...this.filterOf(collection), ...patch }),
    );
  }

  protected languagesOf(collection: RankedCollection): { value: string; label: string }[] {
    const tags = [...new Set(collection.entries.map((r) => localeOf(r.entry)))];
    return tags
      .map((value) => ({ value, label: languageName(value, this.t.locale) }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }

  protected qualitiesOf(collection: RankedCollection): { value: string; label: string }[] {
    const order = ['x_low', 'low', 'medium', 'high'];
    return [...new Set(collection.entries.map((r) => qualityOf(r.entry)).filter((q) => q))]
      .sort((a, b) => order.indexOf(a) - order.indexOf(b))
      .map((value) => ({ value, label: this.qualityLabel(value) }));
  }

  protected qualityLabel(quality: string): string {
    return this.t.assistant.quality[quality] ?? quality;
  }

  protected visibleEntries(collection: RankedCollection): RankedEntry[] {
    const f = this.filterOf(collection);
    const speaker = f.speaker.trim().toLowerCase();
    return collection.entries.filter(
      (r) =>
        (!f.language || localeOf(r.entry) === f.language) &&
        (!f.quality || qualityOf(r.entry) === f.quality) &&
        (!speaker || speakerOf(r.entry).toLowerCase().includes(speaker)),
    );
  }

  protected speaker = speakerOf;
  protected quality = qualityOf;
  protected languageOf(entry: CatalogEntry): string {
    return languageName(localeOf(entry), this.t.locale);
  }
  protected size(entry: CatalogEntry): string {
    return formatBytes(entry.size, this.t.locale);
  }
  protected onInput(event: Event): string {
    return (event.target as HTMLInputElement).value;
  }
}
