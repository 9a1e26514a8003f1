import {
  BadRequestException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
} from '@nestjs/common';

import { ApiError } from './api-error';
import { toErrorResponse } from './error-response';

describe('toErrorResponse', () => {
  it('serialises an ApiError as it is, with its headers', () => {
    const error = ApiError.invalidField('voice_path', 'unknown_voice', 'no such voice');
    expect(toErrorResponse(error)).toEqual({
      body: {
        status: 400,
        message: 'no such voice',
        data: { voice_path: { code: 'unknown_voice', message: 'no such voice' } },
      },
      headers: {},
      internal: false,
    });
    expect(toErrorResponse(ApiError.unauthorized()).headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(toErrorResponse(ApiError.serviceUnavailable('busy', 2))).toEqual({
      body: { status: 503, message: 'busy', data: {} },
      headers: { 'Retry-After': '2' },
      internal: false,
    });
  });

  it("keeps the message of Nest's client errors", () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope')).body).toEqual({
      status: 404,
      message: 'Cannot GET /nope',
      data: {},
    });
    expect(toErrorResponse(new BadRequestException(['a', 'b'])).body.message).toBe('a; b');
    expect(toErrorResponse(new HttpException({}, 418)).body).toEqual({
      status: 418,
      message: 'Something went wrong while processing your request.',
      data: {},
    });
  });

  it('never serialises what an internal error says', () => {
    const secret = new Error('ENOENT /secret/path');
    expect(toErrorResponse(secret)).toEqual({
      body: { status: 500, message: 'Something went wrong while processing your request.', data: {} },
      headers: {},
      internal: true,
    });
    const nest = toErrorResponse(new InternalServerErrorException('db password is hunter2'));
    expect(nest.body.message).not.toContain('hunter2');
    expect(nest.internal).toBe(true);
    expect(toErrorResponse('a string').internal).toBe(true);
    expect(toErrorResponse(undefined).body.status).toBe(500);
  });

  it('keeps exposed client errors of Express middleware', () => {
    const tooLarge = Object.assign(new Error('request entity too large'), {
      status: 413,
      expose: true,
      type: 'entity.too.large',
    });
    expect(toErrorResponse(tooLarge)).toMatchObject({
      body: { status: 413, message: 'request entity too large' },
      internal: false,
    });
    const badJson = Object.assign(new SyntaxError('Unexpected token'), {
      status: 400,
      expose: true,
      type: 'entity.parse.failed',
    });
    expect(toErrorResponse(badJson).body.message).toBe('The request body is not valid JSON.');
    const hidden = Object.assign(new Error('internal detail'), { status: 400, expose: false });
    expect(toErrorResponse(hidden).internal).toBe(true);
  });
});
