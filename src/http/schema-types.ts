import { Type } from 'typebox';

/** A string enum as plain JSON schema `enum`, so errors list the allowed values. */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
