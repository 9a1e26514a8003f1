import { inject } from '@angular/core';
import { ResolveFn, Routes } from '@angular/router';
import { STRINGS } from '../../i18n/strings';
import { SignInPage } from './sign-in.page';

const title: ResolveFn<string> = () => inject(STRINGS).auth.signIn.title;

export default [{ path: '', title, component: SignInPage }] satisfies Routes;
