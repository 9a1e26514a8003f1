import {
  ChangeDetectionStrategy,
  Component,
  DestroyRef,
  ViewEncapsulation,
  computed,
  inject,
  signal,
} from '@angular/core';
import {
  AbstractControl,
  FormControl,
  FormGroup,
  ReactiveFormsModule,
  ValidationErrors,
} from '@angular/forms';
import { MatButton, MatIconButton } from '@angular/material/button';
import { MatCheckbox } from '@angular/material/checkbox';
import {
  MAT_DIALOG_DATA,
  MatDialog,
  MatDialogActions,
  MatDialogConfig,
  MatDialogContent,
  MatDialogRef,
  MatDialogTitle,
} from '@angular/material/dialog';
import { MatError, MatFormField, MatHint, MatLabel, MatSuffix } from '@angular/material/form-field';
import { MatInput } from '@angular/material/input';
import { MatOption, MatSelect } from '@angular/material/select';
import { MatTooltip } from '@angular/material/tooltip';
import { ApiError } from '../../core/api-error';
import { STRINGS } from '../../i18n/strings';
import { RecordsAdminClient, toRecordsError } from '../../records/records-admin.client';
import {
  fileNames,
  formatBytes,
  fromControlValue,
  isImage,
  isValidJson,
  relationIds,
  toControlValue,
} from '../../records/record-values';
import {
  CollectionSchema,
  FieldSchema,
  RecordItem,
  isMultiple,
  visibleFields,
} from '../../records/records.types';
import { ErrorAlert } from '../../shared/error-alert';
import { AdminIcon } from './admin-icon';
import { ConfirmDialog, ConfirmDialogData, confirmDialogConfig } from './confirm-dialog';
import { RelationPicker, RelationPickerData, relationPickerConfig } from './relation-picker';

export interface RecordPanelData {
  collection: CollectionSchema;
  /** null = a new record. */
  record: RecordItem | null;
  /** All collections (relation targets). */
  collections: CollectionSchema[];
}

export type RecordPanelResult =
  { action: 'saved'; record: RecordItem } | { action: 'deleted'; id: string };

/** The panel opens as a full-height sheet on the right (the whole width on small screens). */
export function recordPanelConfig(data: RecordPanelData): MatDialogConfig<RecordPanelData> {
  return {
    data,
    panelClass: 'records-admin-panel',
    position: { right: '0', top: '0' },
    height: '100%',
    width: '40rem',
    maxWidth: '100vw',
    // The sheet itself takes focus (its title is read out); Tab goes on to the close button and the fields.
    autoFocus: 'dialog',
    ariaLabelledBy: 'record-panel-title',
  };
}

interface FileState {
  existing: string[];
  removed: string[];
  added: File[];
}

function jsonValidator(control: AbstractControl): ValidationErrors | null {
  return isValidJson(control.value) ? null : { json: true };
}

const PASSWORD = 'password';
const PASSWORD_CONFIRM = 'passwordConfirm';

/** View, create, edit and delete one record; a form control per field type; server errors per field. */
@Component({
  selector: 'app-record-panel',
  imports: [
    ReactiveFormsModule,
    MatButton,
    MatIconButton,
    MatCheckbox,
    MatDialogTitle,
    MatDialogContent,
    MatDialogActions,
    MatFormField,
    MatLabel,
    MatHint,
    MatError,
    MatSuffix,
    MatInput,
    MatSelect,
    MatOption,
    MatTooltip,
    ErrorAlert,
    AdminIcon,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  encapsulation: ViewEncapsulation.None,
  templateUrl: './record-panel.html',
  styleUrl: './record-panel.scss',
})
export class RecordPanel {
  protected readonly t = inject(STRINGS).recordsAdmin;
  protected readonly data = inject<RecordPanelData>(MAT_DIALOG_DATA);
  private readonly ref = inject<MatDialogRef<RecordPanel, RecordPanelResult>>(MatDialogRef);
  private readonly dialog = inject(MatDialog);
  private readonly client = inject(RecordsAdminClient);

  protected readonly collection = this.data.collection;
  protected readonly record = this.data.record;
  protected readonly isNew = this.record === null;
  protected readonly isAuth = this.collection.type === 'auth';

  /** Fields with a control: every visible one but autodates (and `id` once created). */
  protected readonly fields: FieldSchema[] = visibleFields(this.collection).filter(
    (f) => f.type !== 'autodate' && !(f.name === 'id' && !this.isNew),
  );
  protected readonly autodates = visibleFields(this.collection).filter(
    (f) => f.type === 'autodate',
  );

  protected readonly form = new FormGroup<Record<string, FormControl>>({});
  protected readonly files = signal<Record<string, FileState>>({});
  protected readonly serverErrors = signal<Record<string, string>>({});
  protected readonly error = signal<ApiError | null>(null);
  protected readonly saving = signal(false);
  protected readonly deleting = signal(false);
  private readonly fileToken = signal('');

  /** Server errors for keys the form has no place for. */
  protected readonly otherErrors = computed(() =>
    Object.entries(this.serverErrors())
      .filter(
        ([key]) =>
          !this.fields.some((f) => f.name === key) && key !== PASSWORD && key !== PASSWORD_CONFIRM,
      )
      .map(([field, message]) => ({ field, message })),
  );

  constructor() {
    const files: Record<string, FileState> = {};
    for (const f of this.fields) {
      if (f.type === 'file') {
        files[f.name] = { existing: fileNames(this.record, f), removed: [], added: [] };
        continue;
      }
      const control = new FormControl<unknown>(toControlValue(f, this.record?.[f.name]), {
        validators: f.type === 'json' ? [jsonValidator] : [],
      });
      this.form.addControl(f.name, control);
    }
    if (this.isAuth) {
      this.form.addControl(PASSWORD, new FormControl(''));
      this.form.addControl(PASSWORD_CONFIRM, new FormControl(''));
    }
    this.files.set(files);

    // Editing a field clears the server's complaint about it.
    const sub = this.form.valueChanges.subscribe(() => {
      const errors = this.serverErrors();
      const left = Object.fromEntries(
        Object.entries(errors).filter(([key]) => {
          const control = this.form.controls[key];
          return !control || control.hasError('server');
        }),
      );
      if (Object.keys(left).length !== Object.keys(errors).length) this.serverErrors.set(left);
    });
    inject(DestroyRef).onDestroy(() => sub.unsubscribe());

    if (this.fields.some((f) => f.type === 'file' && f.protected) && this.record) {
      this.client.filesToken().then(
        (token) => this.fileToken.set(token),
        () => undefined,
      );
    }
  }

  // --- template helpers ------------------------------------------------------------------------

  protected control(name: string): FormControl {
    return this.form.controls[name];
  }

  protected multiple(f: FieldSchema): boolean {
    return isMultiple(f);
  }

  protected errorFor(name: string): string {
    const server = this.serverErrors()[name];
    if (server) return server;
    const control = this.form.controls[name];
    if (control?.hasError('json')) return this.t.record.invalidJson;
    return control?.hasError('required') ? this.t.record.required : '';
  }

  protected targetName(f: FieldSchema): string {
    return this.data.collections.find((c) => c.id === f.collectionId)?.name ?? f.collectionId ?? '';
  }

  protected fileLimits(f: FieldSchema): string {
    return this.t.record.fileLimits(formatBytes(f.maxSize ?? 0), (f.mimeTypes ?? []).join(', '));
  }

  protected thumb(name: string): string | null {
    return this.record && isImage(name)
      ? this.client.fileUrl(this.record, name, { thumb: '100x100', token: this.fileToken() })
      : null;
  }

  protected downloadUrl(name: string): string {
    return this.record
      ? this.client.fileUrl(this.record, name, { download: true, token: this.fileToken() })
      : '';
  }

  /** Protected files: fetch a fresh file token right before downloading. */
  protected async download(event: MouseEvent, f: FieldSchema, name: string): Promise<void> {
    if (!f.protected || !this.record) return;
    event.preventDefault();
    const token = await this.client.filesToken().catch(() => '');
    globalThis.location.assign(this.client.fileUrl(this.record, name, { download: true, token }));
  }

  // --- files -----------------------------------------------------------------------------------

  protected addFiles(f: FieldSchema, input: HTMLInputElement): void {
    const picked = Array.from(input.files ?? []);
    input.value = '';
    if (!picked.length) return;
    this.updateFiles(f.name, (s) =>
      isMultiple(f)
        ? { ...s, added: [...s.added, ...picked] }
        : // A single file replaces the current one.
          { ...s, added: picked.slice(0, 1), removed: [...s.existing] },
    );
    this.clearServerError(f.name);
  }

  protected dropAdded(f: FieldSchema, file: File): void {
    this.updateFiles(f.name, (s) => {
      const added = s.added.filter((a) => a !== file);
      // Single file: dropping the replacement keeps the current file again.
      return isMultiple(f) ? { ...s, added } : { ...s, added, removed: [] };
    });
  }

  protected toggleRemove(f: FieldSchema, name: string): void {
    this.updateFiles(f.name, (s) => ({
      ...s,
      removed: s.removed.includes(name)
        ? s.removed.filter((n) => n !== name)
        : [...s.removed, name],
    }));
  }

  private updateFiles(name: string, change: (state: FileState) => FileState): void {
    this.files.update((all) => ({ ...all, [name]: change(all[name]) }));
  }

  protected size(file: File): string {
    return formatBytes(file.size);
  }

  // --- relations ---------------------------------------------------------------------------------

  protected pick(f: FieldSchema): void {
    const target = this.data.collections.find((c) => c.id === f.collectionId);
    if (!target) return;
    const control = this.control(f.name);
    const data: RelationPickerData = {
      collection: target,
      multiple: isMultiple(f),
      selected: relationIds(control.value),
    };
    this.dialog
      .open<RelationPicker, RelationPickerData, string[]>(
        RelationPicker,
        relationPickerConfig(data),
      )
      .afterClosed()
      .subscribe((ids) => {
        if (!ids) return;
        control.setValue(ids.join(', '));
        control.markAsDirty();
      });
  }

  // --- save / delete -----------------------------------------------------------------------------

  protected async save(): Promise<void> {
    if (this.saving()) return;
    if (this.form.invalid) {
      this.form.markAllAsTouched();
      return;
    }
    const body = this.body();
    if (!this.isNew && Object.keys(body).length === 0) {
      this.ref.close();
      return;
    }
    this.saving.set(true);
    this.error.set(null);
    this.serverErrors.set({});
    try {
      const record = this.isNew
        ? await this.client.create(this.collection.name, body)
        : await this.client.update(this.collection.name, this.record!.id, body);
      this.ref.close({ action: 'saved', record });
    } catch (error) {
      this.showErrors(toRecordsError(error));
    } finally {
      this.saving.set(false);
    }
  }

  /** The request body: every value of a new record, only what changed of an existing one. */
  private body(): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    for (const f of this.fields) {
      if (f.type === 'file') continue;
      const control = this.control(f.name);
      if (!this.isNew && !control.dirty) continue;
      const value = fromControlValue(f, control.value);
      // A new record leaves empty values out, so that the server applies the fields' defaults.
      const empty = value === '' || value === null || (Array.isArray(value) && value.length === 0);
      if (this.isNew && empty) continue;
      body[f.name] = value;
    }
    if (this.isAuth) {
      const password = String(this.control(PASSWORD).value ?? '');
      if (this.isNew || password !== '') {
        body[PASSWORD] = password;
        body[PASSWORD_CONFIRM] = String(this.control(PASSWORD_CONFIRM).value ?? '');
      }
    }
    for (const f of this.fields) {
      if (f.type !== 'file') continue;
      const state = this.files()[f.name];
      if (isMultiple(f)) {
        if (this.isNew) {
          if (state.added.length) body[f.name] = state.added;
        } else {
          if (state.removed.length) body[`${f.name}-`] = state.removed;
          if (state.added.length) body[`${f.name}+`] = state.added;
        }
      } else if (state.added.length) {
        body[f.name] = state.added[0];
      } else if (state.removed.length) {
        body[f.name] = '';
      }
    }
    return body;
  }

  private showErrors(e: ApiError): void {
    const messages: Record<string, string> = {};
    for (const { field, message } of e.fieldList) {
      messages[field] = message;
      const control = this.form.controls[field];
      if (control) {
        control.setErrors({ server: true });
        control.markAsTouched();
      }
    }
    this.serverErrors.set(messages);
    this.error.set(new ApiError(e.status, e.message));
  }

  private clearServerError(name: string): void {
    if (!(name in this.serverErrors())) return;
    const { [name]: _removed, ...rest } = this.serverErrors();
    this.serverErrors.set(rest);
  }

  protected remove(): void {
    const record = this.record;
    if (!record || this.deleting()) return;
    const data: ConfirmDialogData = {
      title: this.t.confirmDelete.title,
      body: this.t.confirmDelete.body(record.id, this.collection.name),
      confirm: this.t.confirmDelete.confirm,
    };
    this.dialog
      .open<ConfirmDialog, ConfirmDialogData, boolean>(ConfirmDialog, confirmDialogConfig(data))
      .afterClosed()
      .subscribe(async (confirmed) => {
        if (!confirmed) return;
        this.deleting.set(true);
        this.error.set(null);
        try {
          await this.client.delete(this.collection.name, record.id);
          this.ref.close({ action: 'deleted', id: record.id });
        } catch (error) {
          const e = toRecordsError(error);
          this.error.set(new ApiError(e.status, e.message || this.t.record.deleteFailed));
        } finally {
          this.deleting.set(false);
        }
      });
  }

  protected close(): void {
    this.ref.close();
  }
}
