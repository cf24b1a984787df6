import { Matches } from 'class-validator';
import { ID_PATTERN } from '../ids';

/** An entity id in a path or body (letters, digits, underscore; 1-64 characters). */
export const IsId = (each = false) => Matches(ID_PATTERN, { each, message: 'must be a valid id' });
