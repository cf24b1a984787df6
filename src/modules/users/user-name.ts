import { ValidateBy, type ValidationOptions } from 'class-validator';

/** docs/decisions/0024-users-names-and-limits.md: 1-16 of `[a-zA-Z0-9_.-]`. */
const NAME_CHARACTERS = /^[a-zA-Z0-9_.-]+$/;
export const NAME_MAX_LENGTH = 16;

/**
 * Why a value is not a valid user name, or null when it is. Besides the decided character set, a name may not start
 * with a dot (as on the original platform): the names `.` and `..` would be dot-segments in
 * `/users/{name}/profile`, which URL normalisation removes, so such a profile could never be reached.
 */
export function userNameProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < 1 || value.length > NAME_MAX_LENGTH)
    return `must be 1-${NAME_MAX_LENGTH} characters long`;
  if (!NAME_CHARACTERS.test(value)) return 'may only contain letters, digits, underscores, hyphens and dots';
  if (value.startsWith('.')) return 'cannot start with a dot';
  return null;
}

export const IsUserName = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isUserName',
      validator: {
        validate: (value: unknown) => userNameProblem(value) === null,
        defaultMessage: (args) => userNameProblem(args?.value) ?? 'must be a valid name',
      },
    },
    options,
  );

/** Tag and custom theme names (the original platform's rule): words joined by single `_` or `-`, 1-16 long. */
const LABEL = /^[a-zA-Z0-9]+(?:[_-][a-zA-Z0-9]+)*$/;

export function labelProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < 1 || value.length > 16) return 'must be 1-16 characters long';
  if (!LABEL.test(value))
    return 'may only contain letters and digits, separated by single underscores or hyphens';
  return null;
}

export const IsLabel = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isLabel',
      validator: {
        validate: (value: unknown) => labelProblem(value) === null,
        defaultMessage: (args) => labelProblem(args?.value) ?? 'must be a valid name',
      },
    },
    options,
  );
