// A function's answers remembered per key, for lookups that the same few keys (User-Agents, addresses, user
// slugs, a page's days) make again and again: bounded, and when full it starts again, so that a flood of distinct
// keys costs at most `limit` entries and only clears the memo. Pure: islands use it too (src/client/format.ts).

export function boundedMemo<V, K = string>(limit: number, compute: (key: K) => V): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size >= limit) memo.clear();
      memo.set(key, value);
    }
    return value;
  };
}
