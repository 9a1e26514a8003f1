import { COMMA, ENTER } from '@angular/cdk/keycodes';
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
import {
  MatChipGrid,
  MatChipInput,
  MatChipInputEvent,
  MatChipRemove,
  MatChipRow,
} from '@angular/material/chips';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatProgressBar } from '@angular/material/progress-bar';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatSlideToggle } from '@angular/material/slide-toggle';
import { Router, RouterLink } from '@angular/router';
import {
  Api,
  addVoiceSample,
  createVoice,
  deleteVoice,
  deleteVoiceSample,
  getCatalog,
  getVoice,
  listInstalledModels,
  transcribeAudio,
  updateVoice,
} from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { CatalogEntry, Voice, VoiceSample } from '../../core/api-types';
import { DecodedRecording, MicrophoneRecorder, decodeRecording } from '../../core/audio';
import { formatDuration, formatSeconds, languageName } from '../../core/format';
import { SessionService } from '../../core/session.service';
import { STRINGS } from '../../i18n/strings';
import { ConfirmService } from '../../shared/confirm.service';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';
import { Waveform } from '../../shared/waveform';

/** A recording chosen or made in the browser, not yet added to the voice. */
interface PendingSample {
  key: number;
  name: string;
  recording: DecodedRecording;
  url: string;
  transcript: string;
  transcribing: boolean;
  adding: boolean;
  error: ApiError | null;
}

/** A stored sample with its playable URL (protected file: needs a file token) and peaks once fetched. */
interface StoredSample {
  sample: VoiceSample;
  url: string;
  peaks: number[];
}

/**
 * Create or edit a voice: name, description, language, avatar, model, preset voice, tags, public; for cloning
 * models, reference recordings (upload or record in the browser, waveform, transcript with auto-transcribe,
 * total length against the model's limit). Delete with confirmation.
 */
@Component({
  selector: 'app-voice-editor-page',
  imports: [
    MatButton,
    MatFormField,
    MatLabel,
    MatHint,
    MatInput,
    MatSelect,
    MatOption,
    MatSlideToggle,
    MatChipGrid,
    MatChipRow,
    MatChipInput,
    MatChipRemove,
    MatProgressBar,
    RouterLink,
    ErrorAlert,
    Icon,
    Waveform,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './voice-editor.page.html',
  styleUrl: './voice-editor.page.scss',
})
export class VoiceEditorPage {
  private readonly api = inject(Api);
  private readonly router = inject(Router);
  private readonly confirm = inject(ConfirmService);
  private readonly session = inject(SessionService);
  protected readonly t = inject(STRINGS);

  /** Route parameter: a voice id, or 'new'. */
  readonly id = input<string>();

  protected readonly separators = [ENTER, COMMA];
  protected readonly recordSupported = MicrophoneRecorder.isSupported();

  protected readonly catalog = signal<CatalogEntry[]>([]);
  protected readonly installedIds = signal<ReadonlySet<string>>(new Set());
  protected readonly voice = signal<Voice | null>(null);
  protected readonly loading = signal(true);
  protected readonly loadError = signal<ApiError | null>(null);

  // Form
  protected readonly name = signal('');
  protected readonly description = signal('');
  protected readonly model = signal('');
  protected readonly presetVoice = signal('');
  protected readonly language = signal('');
  protected readonly tags = signal<string[]>([]);
  protected readonly isPublic = signal(false);
  protected readonly avatarFile = signal<File | null>(null);
  protected readonly avatarPreview = signal<string | null>(null);
  protected readonly removeAvatar = signal(false);
  protected readonly saving = signal(false);
  protected readonly saveError = signal<ApiError | null>(null);
  protected readonly saved = signal(false);

  protected readonly models = computed(() => {
    const current = this.voice()?.model;
    return this.catalog()
      .filter((e) => e.types.some((type) => type !== 'transcription'))
      .filter((e) => this.installedIds().has(e.id) || e.id === current)
      .sort((a, b) => a.name.localeCompare(b.name));
  });
  protected readonly entry = computed(() => this.catalog().find((e) => e.id === this.model()));
  protected readonly canClone = computed(() => this.entry()?.types.includes('cloning') ?? false);
  protected readonly needsPreset = computed(() => {
    const e = this.entry();
    return (
      !!e && !e.types.includes('cloning') && !e.types.includes('design') && !!e.presetVoices?.length
    );
  });
  protected readonly anyLanguage = computed(() => this.entry()?.languages.includes('*') ?? false);
  protected readonly languages = computed(() =>
    (this.entry()?.languages ?? [])
      .filter((l) => l !== '*')
      .map((code) => ({ code, label: languageName(code, this.t.locale) })),
  );

  // Samples
  protected readonly samples = signal<StoredSample[]>([]);
  protected readonly pending = signal<PendingSample[]>([]);
  protected readonly recording = signal(false);
  protected readonly recordingSeconds = signal(0);
  protected readonly sampleError = signal<ApiError | null>(null);
  protected readonly referenceSeconds = computed(() => this.voice()?.referenceDuration ?? 0);
  protected readonly referenceLimit = computed(() => this.entry()?.maxReferenceDuration ?? 0);

  private recorder: MicrophoneRecorder | undefined;
  private recordTimer: ReturnType<typeof setInterval> | undefined;
  private nextKey = 1;

  constructor() {
    void this.load();
    inject(DestroyRef).onDestroy(() => {
      this.recorder?.cancel();
      clearInterval(this.recordTimer);
      for (const p of this.pending()) URL.revokeObjectURL(p.url);
      const preview = this.avatarPreview();
      if (preview) URL.revokeObjectURL(preview);
    });
  }

  async load(): Promise<void> {
    this.loading.set(true);
    this.loadError.set(null);
    try {
      const [catalog, installed] = await Promise.all([
        this.api.invoke(getCatalog),
        this.api.invoke(listInstalledModels),
      ]);
      this.catalog.set([...catalog]);
      this.installedIds.set(new Set(installed.map((m) => m.id)));
      const id = this.id();
      if (id && id !== 'new') {
        this.fill(await this.api.invoke(getVoice, { id }));
      } else if (!this.model()) {
        const first = this.models()[0];
        if (first) this.chooseModel(first.id);
      }
    } catch (e) {
      this.loadError.set(await toApiError(e));
    } finally {
      this.loading.set(false);
    }
  }

  private fill(voice: Voice): void {
    this.voice.set(voice);
    this.name.set(voice.name);
    this.description.set(voice.description);
    this.model.set(voice.model);
    this.presetVoice.set(voice.presetVoice);
    this.language.set(voice.language);
    this.tags.set([...voice.tags]);
    this.isPublic.set(voice.public);
    this.removeAvatar.set(false);
    this.setAvatarFile(null);
    void this.loadSamples(voice);
  }

  private async loadSamples(voice: Voice): Promise<void> {
    if (!voice.samples.length) {
      this.samples.set([]);
      return;
    }
    let token = '';
    try {
      token = await this.session.pb.files.getToken();
    } catch {
      // Without a file token the samples cannot be played; they are still listed.
    }
    const stored = voice.samples.map((sample) => ({
      sample,
      url: token ? `${sample.audioUrl}?token=${encodeURIComponent(token)}` : '',
      peaks: [] as number[],
    }));
    this.samples.set(stored);
    for (const s of stored) {
      if (!s.url) continue;
      fetch(s.url)
        .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
        .then((blob) => decodeRecording(blob))
        .then((decoded) =>
          this.samples.update((list) =>
            list.map((x) => (x.sample.id === s.sample.id ? { ...x, peaks: decoded.peaks } : x)),
          ),
        )
        .catch(() => undefined);
    }
  }

  protected chooseModel(id: string): void {
    this.model.set(id);
    const entry = this.entry();
    const presets = entry?.presetVoices ?? [];
    if (!presets.some((p) => p.id === this.presetVoice())) {
      this.presetVoice.set(this.needsPreset() ? (presets[0]?.id ?? '') : '');
    }
    const langs = entry?.languages ?? [];
    if (
      this.language() &&
      !langs.includes('*') &&
      !langs.some((l) => this.language().startsWith(l))
    ) {
      this.language.set('');
    }
  }

  protected presetLabel(id: string): string {
    const preset = this.entry()?.presetVoices?.find((p) => p.id === id);
    return preset ? `${preset.name} (${languageName(preset.language, this.t.locale)})` : id;
  }

  protected addTag(event: MatChipInputEvent): void {
    const value = event.value.trim();
    if (value && !this.tags().includes(value)) this.tags.update((tags) => [...tags, value]);
    event.chipInput.clear();
  }

  protected removeTag(tag: string): void {
    this.tags.update((tags) => tags.filter((t) => t !== tag));
  }

  protected onAvatar(event: Event): void {
    const input = event.target as HTMLInputElement;
    this.setAvatarFile(input.files?.[0] ?? null);
    input.value = '';
  }

  private setAvatarFile(file: File | null): void {
    const previous = this.avatarPreview();
    if (previous) URL.revokeObjectURL(previous);
    this.avatarFile.set(file);
    this.avatarPreview.set(file ? URL.createObjectURL(file) : null);
    if (file) this.removeAvatar.set(false);
  }

  protected clearAvatar(): void {
    this.setAvatarFile(null);
    if (this.voice()?.avatarUrl) this.removeAvatar.set(true);
  }

  protected text(event: Event): string {
    return (event.target as HTMLInputElement).value;
  }

  protected async save(): Promise<void> {
    if (this.saving()) return;
    const e = this.t.voiceEditor;
    if (!this.name().trim()) {
      this.saveError.set(new ApiError(400, e.nameMissing));
      return;
    }
    if (!this.model()) {
      this.saveError.set(new ApiError(400, e.modelMissing));
      return;
    }
    this.saving.set(true);
    this.saveError.set(null);
    this.saved.set(false);
    const body = {
      name: this.name().trim(),
      description: this.description(),
      model: this.model(),
      presetVoice: this.presetVoice() || undefined,
      language: this.language().trim() || undefined,
      tags: this.tags().length ? this.tags() : [''],
      public: this.isPublic(),
      avatar: this.avatarFile() ?? undefined,
    };
    try {
      const existing = this.voice();
      if (existing) {
        const updated = await this.api.invoke(updateVoice, {
          id: existing.id,
          body: {
            ...body,
            presetVoice: this.presetVoice(),
            language: this.language().trim(),
            removeAvatar: this.removeAvatar() || undefined,
          },
        });
        this.fill(updated);
        this.saved.set(true);
      } else {
        const created = await this.api.invoke(createVoice, {
          body: { ...body, tags: this.tags().length ? this.tags() : undefined },
        });
        this.fill(created);
        this.saved.set(true);
        await this.router.navigate(['/voices', created.id], { replaceUrl: true });
      }
    } catch (err) {
      this.saveError.set(await toApiError(err));
    } finally {
      this.saving.set(false);
    }
  }

  protected async remove(): Promise<void> {
    const voice = this.voice();
    if (!voice) return;
    const d = this.t.voices.delete;
    const ok = await this.confirm.ask({
      title: d.title(voice.name),
      body: d.body,
      confirm: d.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    try {
      await this.api.invoke(deleteVoice, { id: voice.id });
      await this.router.navigate(['/voices']);
    } catch (e) {
      this.saveError.set(await toApiError(e));
    }
  }

  // --- samples ---------------------------------------------------------------------------------

  protected async onFiles(event: Event): Promise<void> {
    const input = event.target as HTMLInputElement;
    const files = [...(input.files ?? [])];
    input.value = '';
    for (const file of files) await this.addPending(file, file.name);
  }

  private async addPending(blob: Blob, name: string): Promise<void> {
    this.sampleError.set(null);
    try {
      const recording = await decodeRecording(blob);
      this.pending.update((list) => [
        ...list,
        {
          key: this.nextKey++,
          name,
          recording,
          url: URL.createObjectURL(recording.wav),
          transcript: '',
          transcribing: false,
          adding: false,
          error: null,
        },
      ]);
    } catch {
      this.sampleError.set(new ApiError(400, this.t.voiceEditor.samples.notAudio(name)));
    }
  }

  protected async toggleRecording(): Promise<void> {
    if (this.recording()) {
      clearInterval(this.recordTimer);
      this.recording.set(false);
      const blob = await this.recorder!.stop();
      this.recorder = undefined;
      await this.addPending(blob, this.t.voiceEditor.samples.recordingName(this.nextKey));
      return;
    }
    this.sampleError.set(null);
    const recorder = new MicrophoneRecorder();
    try {
      await recorder.start();
    } catch {
      this.sampleError.set(new ApiError(0, this.t.voiceEditor.samples.noMicrophone));
      return;
    }
    this.recorder = recorder;
    this.recording.set(true);
    const started = Date.now();
    this.recordingSeconds.set(0);
    this.recordTimer = setInterval(
      () => this.recordingSeconds.set((Date.now() - started) / 1000),
      250,
    );
  }

  private patchPending(key: number, patch: Partial<PendingSample>): void {
    this.pending.update((list) => list.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  }

  protected setTranscript(p: PendingSample, event: Event): void {
    this.patchPending(p.key, { transcript: (event.target as HTMLTextAreaElement).value });
  }

  protected async transcribe(p: PendingSample): Promise<void> {
    this.patchPending(p.key, { transcribing: true, error: null });
    try {
      const file = new File([p.recording.wav], 'sample.wav', { type: 'audio/wav' });
      const result = await this.api.invoke(transcribeAudio, {
        language: this.language().split('-')[0] || undefined,
        body: { file },
      });
      this.patchPending(p.key, { transcript: result.text });
    } catch (e) {
      this.patchPending(p.key, { error: await toApiError(e) });
    } finally {
      this.patchPending(p.key, { transcribing: false });
    }
  }

  protected discard(p: PendingSample): void {
    URL.revokeObjectURL(p.url);
    this.pending.update((list) => list.filter((x) => x.key !== p.key));
  }

  protected async addSample(p: PendingSample): Promise<void> {
    const voice = this.voice();
    if (!voice) return;
    this.patchPending(p.key, { adding: true, error: null });
    try {
      const audio = new File([p.recording.wav], 'sample.wav', { type: 'audio/wav' });
      await this.api.invoke(addVoiceSample, {
        id: voice.id,
        body: { audio, transcript: p.transcript.trim() || undefined },
      });
      this.discard(p);
      this.fill(await this.api.invoke(getVoice, { id: voice.id }));
    } catch (e) {
      this.patchPending(p.key, { adding: false, error: await toApiError(e) });
    }
  }

  protected async deleteSample(s: StoredSample): Promise<void> {
    const voice = this.voice();
    if (!voice) return;
    const d = this.t.voiceEditor.samples.delete;
    const ok = await this.confirm.ask({
      title: d.title,
      body: d.body,
      confirm: d.confirm,
      cancel: this.t.common.cancel,
      destructive: true,
    });
    if (!ok) return;
    try {
      await this.api.invoke(deleteVoiceSample, { id: voice.id, sid: s.sample.id });
      this.fill(await this.api.invoke(getVoice, { id: voice.id }));
    } catch (e) {
      this.sampleError.set(await toApiError(e));
    }
  }

  protected seconds(value: number): string {
    return formatSeconds(value, this.t.locale);
  }

  protected clock(value: number): string {
    return formatDuration(value);
  }
}
