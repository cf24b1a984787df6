/**
 * Where a connection URL points, without credentials: what operators need to see before a command runs (and what
 * a log line may carry). An unparsable URL is named as such rather than echoed (it may hold a password).
 */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return '(unparsable URL)';
  }
}

/** Where Redis is: the URL's target, or the seed nodes of a Redis Cluster. */
export function describeRedisTarget(env: {
  redisUrl: string;
  redisClusterNodes: { host: string; port: number }[];
}): string {
  if (env.redisClusterNodes.length === 0) return describeTarget(env.redisUrl);
  return `Redis Cluster ${env.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
}
