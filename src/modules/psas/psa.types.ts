/** An announcement as clients get it (contract facts §11: `{ _id, message, date?, level?, sticky? }`). */
export interface Psa {
  _id: string;
  message: string;
  /** Milliseconds; the original client shows it in the reader's local time. */
  date?: number;
  level?: number;
  sticky?: boolean;
}

export interface NewPsa {
  message: string;
  date?: number;
  level?: number;
  sticky?: boolean;
}

export interface ReleaseAnnouncement {
  releaseId: string;
  tagName: string | null;
  name: string | null;
}
