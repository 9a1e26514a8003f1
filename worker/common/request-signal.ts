import type { Response } from 'express';

/**
 * An AbortSignal that aborts when the client goes away before the response is complete, so work done for it
 * (queued or running synthesis) stops instead of finishing for nobody.
 */
export function responseAbortSignal(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) {
      controller.abort(new ClientGoneError());
    }
  });
  return controller.signal;
}

export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}
