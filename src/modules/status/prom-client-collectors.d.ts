// prom-client's individual default-metric collectors (`lib/metrics/*.js`, what `collectDefaultMetrics` calls) ship
// no types of their own: each registers its metrics on a registry and names them in `metricNames`.
declare module 'prom-client/lib/metrics/*' {
  import type { Registry } from 'prom-client';
  function collect(registry: Registry, config: object): void;
  namespace collect {
    const metricNames: string[];
  }
  export = collect;
}
