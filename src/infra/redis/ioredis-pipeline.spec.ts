import IORedis from 'ioredis';

/**
 * Our fix to ioredis (patches/ioredis+*.patch, applied by `npm ci`; docs/decisions/0052-ioredis-pipeline-patch.md):
 * a pipeline's `length` is one getter on the prototype, not a getter defined on every instance, which gave every
 * pipeline a hidden class of its own that kept it and its commands alive until the next full collection. This fails
 * when the patch is not applied (a new ioredis version: port the patch, or drop it once upstream has the fix).
 */
describe('ioredis pipelines (patched)', () => {
  const redis = new IORedis({ lazyConnect: true, enableOfflineQueue: false });

  afterAll(() => redis.disconnect());

  it('have no getter of their own: `length` comes from the prototype', () => {
    const pipeline = redis.pipeline();
    expect(Object.getOwnPropertyDescriptor(pipeline, 'length')).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(pipeline), 'length')?.get).toBeInstanceOf(
      Function,
    );
  });

  it('still count their queued commands', () => {
    const pipeline = redis.pipeline();
    expect(pipeline.length).toBe(0);
    pipeline.get('a').set('b', '1');
    expect(pipeline.length).toBe(2);
    expect(redis.pipeline().length).toBe(0);
  });
});
