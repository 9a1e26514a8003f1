import { ApiError } from '../common/api-error';
import { FakeTtsBackend } from '../testing/fake-tts-backend';
import { BackendRegistry } from './backend-registry.service';

describe('BackendRegistry', () => {
  const registry = new BackendRegistry([new FakeTtsBackend('espeak', true), new FakeTtsBackend('piper')]);

  it('finds backends by name', () => {
    expect(registry.list().map((backend) => backend.name)).toEqual(['espeak', 'piper']);
    expect(registry.find('piper')?.name).toBe('piper');
    expect(registry.find('nope')).toBeUndefined();
  });

  it('answers 404 for an unknown backend in a URL', () => {
    expect(() => registry.getOrNotFound('nope')).toThrow(ApiError);
    try {
      registry.getOrNotFound('nope');
    } catch (error) {
      expect((error as ApiError).getStatus()).toBe(404);
      expect((error as ApiError).message).toBe('Unknown backend "nope". Available backends: espeak, piper.');
    }
  });

  it('answers 400 on the field for an unknown backend in a body', () => {
    try {
      registry.getForRequest('nope');
      throw new Error('expected an error');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(400);
      expect((error as ApiError).data).toEqual({
        backend: { code: 'unknown_backend', message: expect.any(String) },
      });
    }
  });

  it('refuses two backends with one name', () => {
    expect(() => new BackendRegistry([new FakeTtsBackend('x'), new FakeTtsBackend('x')])).toThrow(
      /Two backends/,
    );
  });
});
