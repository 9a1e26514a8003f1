import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { PAGINATOR_INTL } from '../../shared/paginator-intl';
import { VoiceEditorPage } from './voice-editor.page';
import { VoicesPage } from './voices.page';

const title: ResolveFn<string> = () => inject(STRINGS).voices.title;
/** /voices/new and /voices/:id share one route, so the editor stays in place when a new voice is saved. */
const editorTitle: ResolveFn<string> = (route) =>
  route.paramMap.get('id') === 'new'
    ? inject(STRINGS).voiceEditor.newTitle
    : inject(STRINGS).voiceEditor.editPageTitle;

export default [
  { path: '', title, providers: [PAGINATOR_INTL], component: VoicesPage },
  { path: ':id', title: editorTitle, component: VoiceEditorPage },
] satisfies Routes;
