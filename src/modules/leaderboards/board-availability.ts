import { AppError } from '../../common/app-error';
import { isStoreUnavailable } from '../../common/filters/store-errors';

export const BOARDS_UNAVAILABLE =
  'Daily and weekly leaderboards are temporarily unavailable, please try again later';

/**
 * Daily and weekly boards live only in Redis: while it is unreachable their reads answer 503 with a message saying
 * so (the all-time board, in PostgreSQL, keeps answering). Other errors pass through.
 */
export async function boardRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    if (isStoreUnavailable(e)) throw new AppError(503, BOARDS_UNAVAILABLE);
    throw e;
  }
}
