import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  inject,
  linkedSignal,
  signal,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatSlider, MatSliderThumb } from '@angular/material/slider';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { MatProgressBar } from '@angular/material/progress-bar';
import { Api, getCatalog } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { CatalogEntry, GenerateSpeechRequest, PresetVoice, generateSpeech$Wav } from '../../core/api-types';
import { PcmStreamPlayer } from '../../core/pcm-stream-player';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';

export const MAX_INPUT_CHARS = 5000;
export const SPEED_MIN = 0.5;
export const SPEED_MAX = 2;

interface AudioResult {
  url: string;
  fileName: string;
  autoplay: boolean;
}

/** Text-to-speech playground: text, model, voice, language, speed → audio. */
@Component({
  selector: 'app-studio-page',
  imports: [
    MatButton,
    MatFormField,
    MatLabel,
    MatHint,
    MatInput,
    MatSelect,
    MatOption,
    MatSlider,
    MatSliderThumb,
    MatSlideToggle,
    MatProgressBar,
    ErrorAlert,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './studio.page.html',
  styleUrl: './studio.page.scss',
})
export class StudioPage {
  private readonly api = inject(Api);
  protected readonly player = inject(PcmStreamPlayer);
  protected readonly t = inject(STRINGS);

  protected readonly maxChars = MAX_INPUT_CHARS;
  protected readonly speedMin = SPEED_MIN;
  protected readonly speedMax = SPEED_MAX;
  protected readonly streamSupported = PcmStreamPlayer.isSupported();
  protected readonly formatSpeed = (value: number) => value.toFixed(2);

  // Catalog
  protected readonly catalog = signal<CatalogEntry[] | null>(null);
  protected readonly catalogError = signal<ApiError | null>(null);
  /** For now only embedded models, which are always installed. */
  protected readonly models = computed(() => (this.catalog() ?? []).filter((m) => m.embedded === true));

  // Form state
  protected readonly text = signal('');
  protected readonly modelId = linkedSignal<CatalogEntry[], string>({
    source: this.models,
    computation: (models, previous) =>
      previous && models.some((m) => m.id === previous.value) ? previous.value : (models[0]?.id ?? ''),
  });
  protected readonly model = computed(() => this.models().find((m) => m.id === this.modelId()));
  protected readonly languages = computed(() => {
    const m = this.model();
    const fromVoices = (m?.presetVoices ?? []).map((v) => v.language);
    return [...new Set(fromVoices.length ? fromVoices : (m?.languages ?? []))];
  });
  protected readonly language = linkedSignal<string[], string>({
    source: this.languages,
    computation: (langs, previous) => (previous && langs.includes(previous.value) ? previous.value : ''),
  });
  protected readonly voices = computed<PresetVoice[]>(() => {
    const lang = this.language();
    const all = this.model()?.presetVoices ?? [];
    return lang ? all.filter((v) => v.language === lang) : all;
  });
  protected readonly voiceId = linkedSignal<PresetVoice[], string>({
    source: this.voices,
    computation: (voices, previous) =>
      previous && voices.some((v) => v.id === previous.value) ? previous.value : '',
  });
  protected readonly speed = signal(1);
  protected readonly stream = signal(false);

  // Generation
  protected readonly busy = signal(false);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly result = signal<AudioResult | null>(null);

  protected readonly charCount = computed(() => this.text().length);
  protected readonly tooLong = computed(() => this.charCount() > MAX_INPUT_CHARS);
  protected readonly canGenerate = computed(
    () => !this.busy() && !!this.model() && this.text().trim().length > 0 && !this.tooLong(),
  );

  constructor() {
    void this.loadCatalog();
    inject(DestroyRef).onDestroy(() => {
      this.player.stop();
      this.setResult(null);
    });
  }

  async loadCatalog(): Promise<void> {
    this.catalogError.set(null);
    this.catalog.set(null);
    try {
      this.catalog.set(await this.api.invoke(getCatalog));
    } catch (e) {
      this.catalogError.set(await toApiError(e));
    }
  }

  protected onText(event: Event): void {
    this.text.set((event.target as HTMLTextAreaElement).value);
  }

  protected onVoice(id: string): void {
    this.voiceId.set(id);
    const voice = this.voices().find((v) => v.id === id);
    if (voice && !this.language()) this.language.set(voice.language);
  }

  protected async generate(): Promise<void> {
    if (!this.canGenerate()) return;
    const request: GenerateSpeechRequest = {
      model: this.modelId(),
      input: this.text(),
      speed: this.speed(),
      stream: false,
    };
    if (this.voiceId()) request.voice = this.voiceId();
    if (this.language()) request.language = this.language();

    this.busy.set(true);
    this.error.set(null);
    this.setResult(null);
    try {
      if (this.stream() && this.streamSupported) {
        const wav = await this.player.play(request);
        if (wav) this.setResult(wav, false);
      } else {
        const wav = await this.api.invoke(generateSpeech$Wav, { body: request });
        this.setResult(wav, true);
      }
    } catch (e) {
      this.error.set(await toApiError(e));
    } finally {
      this.busy.set(false);
    }
  }

  protected stop(): void {
    this.player.stop();
  }

  private setResult(blob: Blob | null, autoplay = false): void {
    const previous = this.result();
    if (previous) URL.revokeObjectURL(previous.url);
    if (!blob) {
      this.result.set(null);
      return;
    }
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
    this.result.set({
      url: URL.createObjectURL(blob),
      fileName: `chorus-${this.modelId() || 'speech'}-${stamp}.wav`,
      autoplay,
    });
  }
}
