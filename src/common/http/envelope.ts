/** The success body of every endpoint (docs/decisions/0007-envelope-and-status-codes.md). */
export interface Envelope<T> {
  message: string;
  data: T | null;
}

export function ok<T>(message: string, data?: T): Envelope<T> {
  return { message, data: data === undefined ? null : data };
}
