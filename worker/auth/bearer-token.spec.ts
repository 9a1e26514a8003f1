import { Controller, Get, type INestApplication } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { Test } from '@nestjs/testing';

import { ApiErrorFilter } from '../common/api-error.filter';
import { BearerAuthGuard } from './bearer-auth.guard';
import { BearerTokenVerifier } from './bearer-token';
import { Public } from './public.decorator';

describe('BearerTokenVerifier', () => {
  const verifier = new BearerTokenVerifier('s3cret-token');

  it.each([
    ['Bearer s3cret-token', true],
    ['bearer s3cret-token', true],
    ['Bearer   s3cret-token  ', true],
    ['Bearer s3cret-tokenX', false],
    ['Bearer s3cret', false],
    ['Bearer', false],
    ['Basic s3cret-token', false],
    ['s3cret-token', false],
    ['', false],
    [undefined, false],
    [['Bearer s3cret-token'], false],
  ])('%p → %p', (header, expected) => {
    expect(verifier.verify(header)).toBe(expected);
  });

  it('lets everything through when no token is configured', () => {
    const open = new BearerTokenVerifier(undefined);
    expect(open.enabled).toBe(false);
    expect(open.verify(undefined)).toBe(true);
    expect(verifier.enabled).toBe(true);
  });
});

@Controller()
class ProbeController {
  @Get('open')
  @Public()
  open() {
    return { ok: true };
  }

  @Get('closed')
  closed() {
    return { ok: true };
  }
}

describe('BearerAuthGuard', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      controllers: [ProbeController],
      providers: [
        Reflector,
        { provide: BearerTokenVerifier, useValue: new BearerTokenVerifier('tok') },
        { provide: APP_GUARD, useClass: BearerAuthGuard },
      ],
    }).compile();
    app = module.createNestApplication({ logger: false });
    app.useGlobalFilters(new ApiErrorFilter());
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(() => app.close());

  it('answers 401 in the error shape without the token', async () => {
    const response = await fetch(`${base}/closed`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({
      status: 401,
      message: 'The request requires a valid bearer token.',
      data: {},
    });
    expect((await fetch(`${base}/closed`, { headers: { Authorization: 'Bearer nope' } })).status).toBe(401);
  });

  it('passes with the token, and public routes without it', async () => {
    expect((await fetch(`${base}/closed`, { headers: { Authorization: 'Bearer tok' } })).status).toBe(200);
    expect((await fetch(`${base}/open`)).status).toBe(200);
  });
});
