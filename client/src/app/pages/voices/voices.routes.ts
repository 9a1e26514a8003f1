import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { PAGINATOR_INTL } from '../../shared/paginator-intl';
import { VoiceEditorPage } from './voice-editor.page';
import { VoicesPage } from './voices.page';

const title: ResolveFn<string> = () => inject(STRINGS).voices.title;
const newTitle: ResolveFn<string> = () => inject(STRINGS).voiceEditor.newTitle;
const editTitle: ResolveFn<string> = () => inject(STRINGS).voiceEditor.editPageTitle;

export default [
  { path: '', title, providers: [PAGINATOR_INTL], component: VoicesPage },
  { path: 'new', title: newTitle, component: VoiceEditorPage },
  { path: ':id', title: editTitle, component: VoiceEditorPage },
] satisfies Routes;
