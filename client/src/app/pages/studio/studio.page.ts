import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  computed,
  effect,
  inject,
  linkedSignal,
  signal,
  untracked,
} from '@angular/core';
import { MatButton } from '@angular/material/button';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOptgroup, MatOption, MatSelect } from '@angular/material/select';
import { MatSlider, MatSliderThumb } from '@angular/material/slider';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { MatProgressBar } from '@angular/material/progress-bar';
import { RouterLink } from '@angular/router';
import { Api, listGenerations, listInstalledModels, listVoices } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import {
  CatalogEntry,
  GenerateSpeechRequest,
  Generation,
  InstalledModel,
  PresetVoice,
  Voice,
  generateSpeech$Wav,
} from '../../core/api-types';
import { languageName } from '../../core/format';
import { PcmStreamPlayer } from '../../core/pcm-stream-player';
import { SessionService } from '../../core/session.service';
import { StudioDraftService } from '../../core/studio-draft';
import { STRINGS } from '../../i18n/strings';
import { ErrorAlert } from '../../shared/error-alert';
import { GenerationItem } from '../../shared/generation-item';
import { Icon } from '../../shared/icon';

export const MAX_INPUT_CHARS = 5000;
export const SPEED_MIN = 0.5;
export const SPEED_MAX = 2;
const RECENT_COUNT = 5;

interface AudioResult {
  url: string;
  fileName: string;
  autoplay: boolean;
}

/** A voice choice: a preset voice of the model, or a Chorus voice (select values are prefixed to keep them apart). */
const PRESET = 'preset:';
const VOICE = 'voice:';

/** Text-to-speech playground: text, model, voice, language, speed → audio; recent generations below. */
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
    MatOptgroup,
    MatSlider,
    MatSliderThumb,
    MatSlideToggle,
    MatProgressBar,
    RouterLink,
    ErrorAlert,
    GenerationItem,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './studio.page.html',
  styleUrl: './studio.page.scss',
})
export class StudioPage {
  private readonly api = inject(Api);
  private readonly session = inject(SessionService);
  protected readonly player = inject(PcmStreamPlayer);
  protected readonly t = inject(STRINGS);

  protected readonly maxChars = MAX_INPUT_CHARS;
  protected readonly speedMin = SPEED_MIN;
  protected readonly speedMax = SPEED_MAX;
  protected readonly streamSupported = PcmStreamPlayer.isSupported();
  protected readonly formatSpeed = (value: number) => value.toFixed(2);
  protected readonly isAdmin = this.session.isAdmin;

  // Installed models (speech models only: transcription ones cannot speak).
  protected readonly installed = signal<InstalledModel[] | null>(null);
  protected readonly catalogError = signal<ApiError | null>(null);
  protected readonly models = computed<CatalogEntry[]>(() =>
    (this.installed() ?? [])
      .map((m) => m.entry)
      .filter((e) => e.types.some((type) => type !== 'transcription'))
      .sort((a, b) => a.name.localeCompare(b.name)),
  );

  // Form state
  private readonly draft = inject(StudioDraftService).take();
  protected readonly text = signal(this.draft?.text ?? '');
  protected readonly modelId = linkedSignal<CatalogEntry[], string>({
    source: this.models,
    computation: (models, previous) => {
      const wanted = previous?.value || this.draft?.model;
      return wanted && models.some((m) => m.id === wanted) ? wanted : (models[0]?.id ?? '');
    },
  });
  protected readonly model = computed(() => this.models().find((m) => m.id === this.modelId()));

  /** The user's voices (and public ones) for the chosen model. */
  protected readonly chorusVoices = signal<Voice[]>([]);
  protected readonly ownVoices = computed(() => this.chorusVoices().filter((v) => v.owned));
  protected readonly sharedVoices = computed(() => this.chorusVoices().filter((v) => !v.owned));

  protected readonly languages = computed(() => {
    const m = this.model();
    const fromVoices = (m?.presetVoices ?? []).map((v) => v.language);
    return [
      ...new Set(fromVoices.length ? fromVoices : (m?.languages ?? []).filter((l) => l !== '*')),
    ];
  });
  protected readonly language = linkedSignal<string[], string>({
    source: this.languages,
    computation: (langs, previous) => {
      const wanted = previous?.value ?? this.draft?.language;
      return wanted && langs.includes(wanted) ? wanted : '';
    },
  });
  protected readonly presetVoices = computed<PresetVoice[]>(() => {
    const lang = this.language();
    const all = this.model()?.presetVoices ?? [];
    return lang ? all.filter((v) => v.language === lang) : all;
  });
  protected readonly voiceChoice = linkedSignal<
    { presets: PresetVoice[]; voices: Voice[] },
    string
  >({
    source: () => ({ presets: this.presetVoices(), voices: this.chorusVoices() }),
    computation: ({ presets, voices }, previous) => {
      const wanted = previous?.value || (this.draft?.voice ? VOICE + this.draft.voice : '');
      if (!wanted) return '';
      if (wanted.startsWith(PRESET) && presets.some((v) => PRESET + v.id === wanted)) return wanted;
      if (wanted.startsWith(VOICE) && voices.some((v) => VOICE + v.id === wanted)) return wanted;
      return '';
    },
  });
  protected readonly speed = signal(1);
  protected readonly stream = signal(this.streamSupported);

  // Generation
  protected readonly busy = signal(false);
  protected readonly error = signal<ApiError | null>(null);
  protected readonly result = signal<AudioResult | null>(null);

  // Recent generations
  protected readonly recent = signal<Generation[] | null>(null);
  protected readonly recentError = signal<ApiError | null>(null);
  protected readonly entries = computed(
    () => new Map((this.installed() ?? []).map((m) => [m.id, m.entry])),
  );

  protected readonly charCount = computed(() => this.text().length);
  protected readonly tooLong = computed(() => this.charCount() > MAX_INPUT_CHARS);
  protected readonly canGenerate = computed(
    () => !this.busy() && !!this.model() && this.text().trim().length > 0 && !this.tooLong(),
  );

  constructor() {
    void this.loadCatalog();
    void this.loadRecent();
    // The Chorus voices of the chosen model.
    let request = 0;
    effect(() => {
      const model = this.modelId();
      const id = ++request;
      untracked(() => this.chorusVoices.set([]));
      if (!model) return;
      this.api.invoke(listVoices, { model, perPage: 100 }).then(
        (page) => {
          if (id === request) this.chorusVoices.set(page.items);
        },
        () => undefined,
      );
    });
    inject(DestroyRef).onDestroy(() => {
      this.player.stop();
      this.setResult(null);
    });
  }

  async loadCatalog(): Promise<void> {
    this.catalogError.set(null);
    this.installed.set(null);
    try {
      this.installed.set(await this.api.invoke(listInstalledModels));
    } catch (e) {
      this.catalogError.set(await toApiError(e));
    }
  }

  async loadRecent(): Promise<void> {
    try {
      const page = await this.api.invoke(listGenerations, { perPage: RECENT_COUNT });
      this.recent.set(page.items);
      this.recentError.set(null);
    } catch (e) {
      this.recentError.set(await toApiError(e));
    }
  }

  protected onText(event: Event): void {
    this.text.set((event.target as HTMLTextAreaElement).value);
  }

  protected onVoice(value: string): void {
    this.voiceChoice.set(value);
    if (value.startsWith(PRESET)) {
      const voice = this.presetVoices().find((v) => PRESET + v.id === value);
      if (voice && !this.language()) this.language.set(voice.language);
    }
  }

  protected languageLabel(code: string): string {
    return languageName(code, this.t.locale);
  }

  protected readonly presetPrefix = PRESET;
  protected readonly voicePrefix = VOICE;

  protected async generate(): Promise<void> {
    if (!this.canGenerate()) return;
    const request: GenerateSpeechRequest = {
      model: this.modelId(),
      input: this.text(),
      speed: this.speed(),
      stream: false,
    };
    const choice = this.voiceChoice();
    if (choice.startsWith(PRESET)) request.voice = choice.slice(PRESET.length);
    else if (choice.startsWith(VOICE)) request.voice = choice.slice(VOICE.length);
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
      void this.loadRecent();
    } catch (e) {
      this.error.set(await toApiError(e));
    } finally {
      this.busy.set(false);
    }
  }

  protected stop(): void {
    this.player.stop();
  }

  protected reuse(generation: Generation): void {
    this.text.set(generation.text);
    if (this.models().some((m) => m.id === generation.model)) this.modelId.set(generation.model);
    document.getElementById('studio-text')?.focus();
  }

  protected removed(generation: Generation): void {
    this.recent.update((list) => (list ?? []).filter((g) => g.id !== generation.id));
    void this.loadRecent();
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
