import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isLanguage } from '../languages';

/** A supported language name (`src/common/languages.ts`). */
export const IsLanguage = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isLanguage',
      validator: {
        validate: (value: unknown) => isLanguage(value),
        defaultMessage: () => 'must be a supported language',
      },
    },
    options,
  );
