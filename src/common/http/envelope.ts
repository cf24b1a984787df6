/** The success body of every endpoint (DECISIONS.md "Envelope and errors"). */
export interface Envelope<T> {
  message: string;
  data: T | null;
}

export function ok<T>(message: string, data?: T): Envelope<T> {
  return { message, data: data === undefined ? null : data };
}
