// cluster-key-slot (a dependency of ioredis) ships no types: the hash slot of a key, and of a set of keys (-1 when
// they differ).
declare module 'cluster-key-slot' {
  function calculateSlot(key: string | Buffer): number;
  namespace calculateSlot {
    function generateMulti(keys: (string | Buffer)[]): number;
  }
  export = calculateSlot;
}
