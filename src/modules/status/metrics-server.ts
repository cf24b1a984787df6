import { createServer, type Server } from 'node:http';
import type { AppEnv } from '../../config/env';
import { metricsAccess } from './metrics-access';
import type { MetricsService } from './metrics.service';

const CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /metrics` on its own port (`METRICS_PORT`), so the API port never serves it and the scrape port can be kept
 * off the public network. Nothing else is served there.
 */
export async function startMetricsServer(metrics: MetricsService, env: AppEnv): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found","data":null}');
      return;
    }
    if (metricsAccess(env, req.headers.authorization, true) !== 'allowed') {
      res
        .writeHead(401, { 'content-type': 'application/json' })
        .end('{"message":"Unauthorized","data":null}');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': CONTENT_TYPE }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(env.metrics.port, env.metrics.host, () => resolve());
  });
  return server;
}
