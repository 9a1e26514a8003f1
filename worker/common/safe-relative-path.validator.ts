import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * True for a relative path that stays inside the directory it is resolved against: no absolute path, no drive
 * letter, no `..` segment, no NUL, no backslash. This is the first of two checks; the store confines the
 * resolved path again before touching the file system.
 */
export function isSafeRelativePath(value: unknown): boolean {
  if (typeof value !== 'string' || value.length === 0 || value.length > 1024) {
    return false;
  }
  if (value.includes('\0') || value.includes('\\') || value.startsWith('/') || /^[a-zA-Z]:/.test(value)) {
    return false;
  }
  return value.split('/').every((segment) => segment !== '..' && segment !== '');
}

export function IsSafeRelativePath(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyKey) => {
    registerDecorator({
      name: 'isSafeRelativePath',
      target: target.constructor,
      propertyName: propertyKey as string,
      options: { message: '$property must be a relative path inside the models directory', ...options },
      validator: { validate: isSafeRelativePath },
    });
  };
}
