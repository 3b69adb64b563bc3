// A function's answers remembered per string key, for lookups that the same few keys (User-Agents, addresses,
// user slugs) make again and again: bounded, and when full it starts again, so that a flood of distinct keys
// costs at most `limit` entries and only clears the memo.

export function boundedMemo<V>(limit: number, compute: (key: string) => V): (key: string) => V {
  const memo = new Map<string, V>();
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
