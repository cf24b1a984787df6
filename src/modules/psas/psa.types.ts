import type { Int } from '../../common/int';

/** An announcement as clients get it (contract facts §11: `{ _id, message, date?, level?, sticky? }`). */
export interface Psa {
  _id: string;
  message: string;
  /** Milliseconds; the original client shows it in the reader's local time. */
  date?: Int;
  level?: Int;
  sticky?: boolean;
}

export interface NewPsa {
  message: string;
  date?: Int;
  level?: Int;
  sticky?: boolean;
}

export interface ReleaseAnnouncement {
  releaseId: string;
  tagName: string | null;
  name: string | null;
}
