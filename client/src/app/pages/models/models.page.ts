import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { RouterLink } from '@angular/router';
import { debounceTime } from 'rxjs';
import { Api, cancelJob, deleteModel, listInstalledModels } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import {
  InstalledModel,
  Job,
  MODEL_EVENTS_PATH,
  ModelEvent,
  ModelWorker,
} from '../../core/api-types';
import { formatRelative } from '../../core/format';
import { JobsStore } from '../../core/jobs.store';
import { ServerEvents } from '../../core/server-events';
import { SessionService } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { ConfirmService } from '../../shared/confirm.service';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';
import { JobProgress } from './job-progress';
import { ModelFacts } from './model-facts';
import { familyOf, groupByFamily } from './model-logic';

/**
 * Installed models (SPEC §2): one section per family with its variants, each with a facts line and the workers
 * holding it. Refreshes on model events; admins see running installs and may remove models.
 */
@Component({
  selector: 'app-models-page',
  imports: [MatButton, RouterLink, ErrorAlert, Icon, JobProgress, ModelFacts],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './models.page.html',
  styleUrl: './models.page.scss',
})
export class ModelsPage {
  private readonly api = inject(Api);
  private readonly jobsStore = inject(JobsStore);
  private readonly confirm = inject(ConfirmService);
  protected readonly session = inject(SessionService);
  protected readonly t = inject(STRINGS);

  protected readonly models = signal<InstalledModel[] | null>(null);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly families = computed(() => groupByFamily(this.models() ?? []));
  protected readonly removing = signal<string | null>(null);
  protected readonly removeError = signal<{ model: string; error: ApiError } | null>(null);
  protected readonly activeJobs = this.jobsStore.active;
  protected readonly familyOf = familyOf;

  constructor() {
    void this.load();
    const destroyRef = inject(DestroyRef);
    const events = inject(ServerEvents)
      .stream<ModelEvent>(MODEL_EVENTS_PATH)
      .pipe(debounceTime(250))
      .subscribe(() => void this.load(true));
    destroyRef.onDestroy(() => events.unsubscribe());
    if (this.session.isAdmin()) destroyRef.onDestroy(this.jobsStore.attach());
  }

  async load(quiet = false): Promise<void> {
    if (!quiet) {
      this.error.set(null);
    }
    try {
      this.models.set(await this.api.invoke(listInstalledModels));
      this.error.set(null);
    } catch (e) {
      this.error.set(await toApiError(e));
    }
  }

  protected modelName(id: string): string {
    return this.models()?.find((m) => m.id === id)?.entry.name ?? id;
  }

  protected workerState(worker: ModelWorker, model: InstalledModel): string {
    const w = this.t.models.worker;
    const device = this.t.common.device(worker.device);
    if (model.entry.embedded) return w.builtIn(worker.serverName, device);
    if (worker.loaded) return w.loaded(worker.serverName, device);
    return worker.installedAt
      ? w.installed(worker.serverName, device, formatRelative(worker.installedAt, this.t.locale))
      : w.ready(worker.serverName, device);
  }

  protected async remove(model: InstalledModel): Promise<void> {
    const c = this.t.models.remove;
    const ok = await this.confirm.ask({
      title: c.title(model.entry.name),
      body: c.body(model.workers.map((w) => w.serverName).join(', ')),
      confirm: c.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    this.removing.set(model.id);
    this.removeError.set(null);
    try {
      const result = await this.api.invoke(deleteModel, { id: model.id });
      const failed = result.results.filter((r) => !r.ok);
      if (failed.length) {
        const text = failed.map((r) => c.failedOn(r.serverName, r.error ?? '')).join(' ');
        this.removeError.set({ model: model.id, error: new ApiError(502, text) });
      }
    } catch (e) {
      this.removeError.set({ model: model.id, error: await toApiError(e) });
    } finally {
      this.removing.set(null);
      await this.load(true);
    }
  }

  protected async cancelJob(job: Job): Promise<void> {
    try {
      this.jobsStore.upsert(await this.api.invoke(cancelJob, { id: job.id }));
    } catch {
      // The stream shows the job's real state.
    }
  }
}
