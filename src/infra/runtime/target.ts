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

/**
 * Where Redis is: the URL's target (`rediss://` says TLS), or the seed nodes of a Redis Cluster and whether it is
 * reached over TLS. Never a password.
 */
export function describeRedisTarget(env: {
  redisUrl: string;
  redisClusterNodes: { host: string; port: number }[];
  redisTls?: object;
}): string {
  if (env.redisClusterNodes.length === 0) return describeTarget(env.redisUrl);
  const nodes = env.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(',');
  return `Redis Cluster ${nodes}${env.redisTls ? ' over TLS' : ''}`;
}
