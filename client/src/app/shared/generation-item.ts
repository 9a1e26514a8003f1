import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  input,
  output,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { Api, deleteGeneration, getGenerationAudio } from '../api';
import { ApiError, toApiError } from '../core/api-error';
import { CatalogEntry, Generation } from '../core/api-types';
import { downloadBlob, formatDateTime, formatDuration, languageName } from '../core/format';
import { STRINGS } from '../i18n/strings';
import { ConfirmService } from './confirm.service';
import { ErrorAlert } from './error-alert';
import { Icon } from './icon';

/**
 * One history entry: the text, what spoke it, and actions (play, download, re-use the text, delete). The audio is
 * fetched with the session (GET /api/generations/{id}/audio) when first played or downloaded.
 */
@Component({
  selector: 'app-generation-item',
  imports: [MatButton, ErrorAlert, Icon],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'generation' },
  template: `
    <p class="text">{{ generation().text }}</p>
    <p class="meta">
      <span>{{ voiceLabel() }}</span>
      <span>{{ entry()?.name || generation().model }}</span>
      @if (generation().language) {
        <span>{{ language() }}</span>
      }
      <span>{{ duration() }}</span>
      <time [attr.datetime]="generation().created">{{ created() }}</time>
    </p>
    @if (audioUrl(); as url) {
      <audio
        controls
        autoplay
        [src]="url"
        [attr.aria-label]="t.generations.audioLabel(created())"
      ></audio>
    }
    <div class="actions">
      @if (!audioUrl()) {
        <button
          mat-button
          type="button"
          (click)="play()"
          [disabled]="loading()"
          [attr.aria-label]="t.generations.playLabel(created())"
        >
          <app-icon name="play" />{{ loading() ? t.common.loading : t.common.play }}
        </button>
      }
      <button
        mat-button
        type="button"
        (click)="download()"
        [attr.aria-label]="t.generations.downloadLabel(created())"
      >
        <app-icon name="download" />{{ t.common.download }}
      </button>
      <button
        mat-button
        type="button"
        (click)="reuse.emit(generation())"
        [attr.aria-label]="t.generations.reuseLabel(created())"
      >
        <app-icon name="replay" />{{ t.generations.reuse }}
      </button>
      <button
        mat-button
        type="button"
        class="danger"
        (click)="remove()"
        [disabled]="deleting()"
        [attr.aria-label]="t.generations.deleteLabel(created())"
      >
        <app-icon name="delete" />{{ t.common.delete }}
      </button>
    </div>
    @if (error(); as err) {
      <app-error-alert [error]="err" />
    }
  `,
  styles: `
    :host {
      display: flex;
      flex-direction: column;
      gap: 0.375rem;
      padding: 0.75rem 0;
      border-bottom: 1px solid var(--mat-sys-outline-variant);
    }
    .text {
      margin: 0;
      display: -webkit-box;
      -webkit-line-clamp: 3;
      -webkit-box-orient: vertical;
      overflow: hidden;
      overflow-wrap: anywhere;
    }
    .meta {
      display: flex;
      flex-wrap: wrap;
      gap: 0 0.5rem;
      margin: 0;
      color: var(--mat-sys-on-surface-variant);
      font: var(--mat-sys-body-small);
      span::after {
        content: '·';
        margin-left: 0.5rem;
      }
    }
    audio {
      width: 100%;
      max-width: 32rem;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: 0.25rem;
      margin-left: -0.75rem;
    }
    .danger {
      --mat-button-text-label-text-color: var(--mat-sys-error);
    }
  `,
})
export class GenerationItem {
  private readonly api = inject(Api);
  private readonly confirm = inject(ConfirmService);
  protected readonly t = inject(STRINGS);

  readonly generation = input.required<Generation>();
  /** The generation's model (for its display name and preset voice names), when known. */
  readonly entry = input<CatalogEntry | undefined>(undefined);
  readonly reuse = output<Generation>();
  readonly deleted = output<Generation>();

  protected readonly audioUrl = signal<string | null>(null);
  protected readonly loading = signal(false);
  protected readonly deleting = signal(false);
  protected readonly error = signal<ApiError | null>(null);
  private blob: Blob | null = null;

  protected readonly created = computed(() =>
    formatDateTime(this.generation().created, this.t.locale),
  );
  protected readonly duration = computed(() => formatDuration(this.generation().duration));
  protected readonly language = computed(() =>
    languageName(this.generation().language, this.t.locale),
  );
  protected readonly voiceLabel = computed(() => {
    const g = this.generation();
    const preset = this.entry()?.presetVoices?.find((v) => v.id === g.presetVoice)?.name;
    return g.voiceName || preset || g.presetVoice || this.t.generations.defaultVoice;
  });

  constructor() {
    inject(DestroyRef).onDestroy(() => {
      const url = this.audioUrl();
      if (url) URL.revokeObjectURL(url);
    });
  }

  private async audio(): Promise<Blob | null> {
    if (this.blob) return this.blob;
    this.loading.set(true);
    this.error.set(null);
    try {
      this.blob = await this.api.invoke(getGenerationAudio, { id: this.generation().id });
      return this.blob;
    } catch (e) {
      this.error.set(await toApiError(e));
      return null;
    } finally {
      this.loading.set(false);
    }
  }

  protected async play(): Promise<void> {
    const blob = await this.audio();
    if (blob) this.audioUrl.set(URL.createObjectURL(blob));
  }

  protected async download(): Promise<void> {
    const blob = await this.audio();
    if (blob) downloadBlob(blob, `chorus-${this.generation().id}.wav`);
  }

  protected async remove(): Promise<void> {
    const d = this.t.generations.delete;
    const ok = await this.confirm.ask({
      title: d.title,
      body: d.body,
      confirm: d.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    this.deleting.set(true);
    this.error.set(null);
    try {
      await this.api.invoke(deleteGeneration, { id: this.generation().id });
      this.deleted.emit(this.generation());
    } catch (e) {
      this.error.set(await toApiError(e));
    } finally {
      this.deleting.set(false);
    }
  }
}
