import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { adminGuard } from '../../core/guards';
import { STRINGS } from '../../i18n/strings';
import { AddModelPage } from './add-model.page';
import { ModelsPage } from './models.page';

const title: ResolveFn<string> = () => inject(STRINGS).models.title;
const addTitle: ResolveFn<string> = () => inject(STRINGS).assistant.title;

export default [
  { path: '', title, component: ModelsPage },
  { path: 'add', title: addTitle, canActivate: [adminGuard], component: AddModelPage },
] satisfies Routes;
