import { ChangeDetectionStrategy, Component, inject } from '@angular/core';
import { MatButton } from '@angular/material/button';
import {
  MAT_DIALOG_DATA,
  MatDialogActions,
  MatDialogClose,
  MatDialogConfig,
  MatDialogContent,
  MatDialogTitle,
} from '@angular/material/dialog';
import { STRINGS } from '../../i18n/strings';

export interface ConfirmDialogData {
  title: string;
  body: string;
  confirm: string;
}

export function confirmDialogConfig(data: ConfirmDialogData): MatDialogConfig<ConfirmDialogData> {
  return {
    data,
    role: 'alertdialog',
    autoFocus: 'dialog',
    width: '28rem',
    ariaLabelledBy: 'confirm-title',
  };
}

/** Asks before something that cannot be undone; closes with true when confirmed. */
@Component({
  selector: 'app-records-admin-confirm',
  imports: [MatButton, MatDialogTitle, MatDialogContent, MatDialogActions, MatDialogClose],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <h2 mat-dialog-title id="confirm-title">{{ data.title }}</h2>
    <mat-dialog-content>{{ data.body }}</mat-dialog-content>
    <mat-dialog-actions align="end">
      <button mat-button type="button" [mat-dialog-close]="false">{{ t.cancel }}</button>
      <button mat-flat-button type="button" class="danger" [mat-dialog-close]="true">
        {{ data.confirm }}
      </button>
    </mat-dialog-actions>
  `,
  styles: `
    .danger {
      --mat-button-filled-container-color: var(--mat-sys-error);
      --mat-button-filled-label-text-color: var(--mat-sys-on-error);
    }
  `,
})
export class ConfirmDialog {
  protected readonly t = inject(STRINGS).recordsAdmin.confirmDelete;
  protected readonly data = inject<ConfirmDialogData>(MAT_DIALOG_DATA);
}
