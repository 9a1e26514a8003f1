import {
  ChangeDetectionStrategy,
  Component,
  Signal,
  computed,
  inject,
  signal,
} from '@angular/core';
import { FormsModule } from '@angular/forms';
import { MatButton } from '@angular/material/button';
import {
  MAT_DIALOG_DATA,
  MatDialogActions,
  MatDialogClose,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { MatFormField, MatHint, MatLabel } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatProgressSpinner } from '@angular/material/progress-spinner';
import { MatRadioButton, MatRadioGroup } from '@angular/material/radio';
import { MatTab, MatTabGroup } from '@angular/material/tabs';
import { Api, createRegistrationToken } from '../../api';
import { ApiError, toApiError } from '../../core/api-error';
import { InferenceServer, RegistrationToken } from '../../core/api-types';
import { formatRelative, formatTime, randomHex } from '../../core/format';
import { STRINGS } from '../../i18n/strings';
import { CopyButton } from '../../shared/copy-button';
import { ErrorAlert } from '../../shared/error-alert';
import { Icon } from '../../shared/icon';
import {
  WorkerSnippetInput,
  composeSnippet,
  dockerRunSnippet,
  kubernetesSnippet,
} from './worker-snippets';

export interface AddServerDialogData {
  /** The live server list of the Administration page. */
  servers: Signal<InferenceServer[] | null>;
  /** Ids known when the dialog opened: any other id is a server that registered since. */
  knownIds: ReadonlySet<string>;
}

/**
 * "Add server": creates a registration token (valid one hour) and prints `docker run`, Docker Compose and
 * Kubernetes snippets with SERVICE_URL, SERVICE_REGISTRATION_TOKEN and a fresh INFERENCE_AUTH_TOKEN filled in.
 * The new server shows up here by itself when it registers.
 */
@Component({
  selector: 'app-add-server-dialog',
  imports: [
    FormsModule,
    MatButton,
    MatDialogTitle,
    MatDialogContent,
    MatDialogActions,
    MatDialogClose,
    MatFormField,
    MatLabel,
    MatHint,
    MatInput,
    MatRadioGroup,
    MatRadioButton,
    MatTabGroup,
    MatTab,
    MatProgressSpinner,
    CopyButton,
    ErrorAlert,
    Icon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './add-server.dialog.html',
  styleUrl: './add-server.dialog.scss',
})
export class AddServerDialog {
  private readonly api = inject(Api);
  protected readonly data = inject<AddServerDialogData>(MAT_DIALOG_DATA);
  protected readonly t = inject(STRINGS);

  protected readonly name = signal('chorus-worker');
  protected readonly publicUrl = signal('');
  protected readonly gpu = signal(false);
  protected readonly authToken = randomHex(32);
  protected readonly serviceUrl = globalThis.location?.origin ?? '';

  protected readonly token = signal<RegistrationToken | null>(null);
  protected readonly tokenError = signal<ApiError | null>(null);
  protected readonly creating = signal(false);

  private readonly input = computed<WorkerSnippetInput | null>(() => {
    const token = this.token();
    if (!token) return null;
    return {
      serviceUrl: this.serviceUrl,
      registrationToken: token.token,
      authToken: this.authToken,
      name: this.name().trim() || 'chorus-worker',
      publicUrl: this.publicUrl().trim(),
      gpu: this.gpu(),
    };
  });
  protected readonly snippets = computed(() => {
    const input = this.input();
    if (!input) return [];
    const s = this.t.admin.addServer.snippets;
    return [
      { id: 'docker', label: s.docker, text: dockerRunSnippet(input) },
      { id: 'compose', label: s.compose, text: composeSnippet(input) },
      { id: 'kubernetes', label: s.kubernetes, text: kubernetesSnippet(input) },
    ];
  });

  protected readonly registered = computed(() =>
    (this.data.servers() ?? []).filter((server) => !this.data.knownIds.has(server.id)),
  );

  constructor() {
    void this.createToken();
  }

  protected async createToken(): Promise<void> {
    this.creating.set(true);
    this.tokenError.set(null);
    try {
      this.token.set(await this.api.invoke(createRegistrationToken));
    } catch (e) {
      this.tokenError.set(await toApiError(e));
    } finally {
      this.creating.set(false);
    }
  }

  protected expiry(token: RegistrationToken): string {
    return this.t.admin.addServer.expires(
      formatTime(token.expiresAt, this.t.locale),
      formatRelative(token.expiresAt, this.t.locale),
    );
  }

  protected value(event: Event): string {
    return (event.target as HTMLInputElement).value;
  }
}
