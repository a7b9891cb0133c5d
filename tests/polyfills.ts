// Node 20 lacks Map.groupBy (Node 21+), which Vitest 5's reporter uses when it prints failures.
const mapWithGroupBy = Map as unknown as { groupBy?: unknown };
if (typeof mapWithGroupBy.groupBy !== "function") {
  mapWithGroupBy.groupBy = <K, T>(items: Iterable<T>, key: (item: T, index: number) => K) => {
    const groups = new Map<K, T[]>();
    let index = 0;
    for (const item of items) {
      const group = key(item, index++);
      const list = groups.get(group);
      if (list) list.push(item);
      else groups.set(group, [item]);
    }
    return groups;
  };
}
