import { Injectable, signal } from '@angular/core';

/** What another page asks the Studio to start with (re-use a history text, speak with a voice). */
export interface StudioDraft {
  text?: string;
  model?: string;
  voice?: string;
  language?: string;
}

/** Hand-over of a draft to the Studio: set it, navigate to '/', the Studio takes it once. */
@Injectable({ providedIn: 'root' })
export class StudioDraftService {
  private readonly pending = signal<StudioDraft | null>(null);

  set(draft: StudioDraft): void {
    this.pending.set(draft);
  }

  take(): StudioDraft | null {
    const draft = this.pending();
    this.pending.set(null);
    return draft;
  }
}
