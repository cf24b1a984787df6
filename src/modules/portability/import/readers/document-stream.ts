/** A collection's documents as they are read, and how far into its file the reading is (for the ETA). */
export interface DocumentStream {
  /** Each document, or why one could not be read (a reject, not a fatal error). */
  documents: AsyncGenerator<{ doc: Record<string, unknown> } | { error: string }>;
  bytesRead(): number;
}
