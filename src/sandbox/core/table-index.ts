/**
 * Lookup tables kept beside the state's arrays, so that a route finds its rows in O(1) (or O(page))
 * instead of scanning a whole table: with 5,000 users and 30,000 labels a scan per lookup made the
 * sandbox the bottleneck of every benchmark (issue 12).
 *
 * The arrays stay the source of truth (the state file is still one `JSON.stringify`); an index is
 * derived from its array and kept in step with it this way:
 * - rows appended with `push` are indexed at the next lookup (the index remembers how many rows it saw);
 * - a delete goes through {@link TableIndex.removeWhere} (which filters the array) or {@link TableIndex.remove}
 *   (one row, in place), which drop exactly the removed rows from the maps;
 * - a change of a key field in place (a rename) goes through {@link TableIndex.change};
 * - anything else that replaces the array (or shrinks it) is noticed and the index is rebuilt, so an
 *   unforeseen write costs time, never a stale answer. A new `SandboxState` (a state file loaded)
 *   starts with empty indexes, built on first use.
 *
 * Unique views answer like `Array.prototype.find` (the first row in array order); group views list
 * rows in array order, like `filter`.
 */

export type IndexKey = string | number;
/** A key function; undefined = the row is not in this view. */
export type KeyOf<R> = (row: R) => IndexKey | undefined;

export interface IndexDefinition<R, U extends string, G extends string> {
  unique: Record<U, KeyOf<R>>;
  groups: Record<G, KeyOf<R>>;
}

export class TableIndex<R extends object, U extends string = string, G extends string = string> {
  private seen: R[] | undefined;
  private count = 0;
  /** Set when an update could not be applied exactly: the next lookup rebuilds. */
  private stale = true;
  /** Two rows shared a unique key (never in a consistent state): removing the first must let the next one in. */
  private collided = false;
  private readonly uniqueMaps = new Map<U, Map<IndexKey, R>>();
  private readonly groupMaps = new Map<G, Map<IndexKey, R[]>>();
  /** Bumped by every change the index sees: what {@link derived} values are computed from. */
  private version = 0;
  private readonly derivedValues = new Map<string, { version: number; value: unknown }>();

  constructor(
    private readonly rows: () => R[],
    private readonly setRows: (rows: R[]) => void,
    private readonly def: IndexDefinition<R, U, G>,
  ) {}

  /** The first row whose `view` key is `key`. */
  get(view: U, key: IndexKey): R | undefined {
    this.sync();
    return this.uniqueMaps.get(view)!.get(key);
  }

  /** The rows whose `view` key is `key`, in array order (a new array: callers may sort it). */
  list(view: G, key: IndexKey): R[] {
    this.sync();
    const rows = this.groupMaps.get(view)!.get(key);
    return rows ? rows.slice() : [];
  }

  /** How many rows have `key` in the group `view`. */
  size(view: G, key: IndexKey): number {
    this.sync();
    return this.groupMaps.get(view)!.get(key)?.length ?? 0;
  }

  /**
   * A value computed from the whole table (e.g. its rows in name order), kept until the table
   * changes: an append, a delete, a {@link change} or a replaced array. Callers must not mutate it.
   */
  derived<T>(name: string, compute: (rows: readonly R[]) => T): T {
    this.sync();
    const cached = this.derivedValues.get(name);
    if (cached && cached.version === this.version) return cached.value as T;
    const value = compute(this.rows());
    this.derivedValues.set(name, { version: this.version, value });
    return value;
  }

  /** Deletes the rows matching `pred` from the table and from the index; returns them. */
  removeWhere(pred: (row: R) => boolean): R[] {
    this.sync();
    const removed: R[] = [];
    const kept = this.rows().filter((r) => (pred(r) ? (removed.push(r), false) : true));
    if (removed.length === 0) return removed;
    this.setRows(kept);
    this.version++;
    this.seen = kept;
    this.count = kept.length;
    for (const r of removed) this.unindex(r);
    if (this.stale) this.rebuild(kept);
    return removed;
  }

  /**
   * Deletes one row in place (a native search and move instead of a filter that calls back for
   * each of 30,000 labels); returns whether it was there.
   */
  remove(row: R): boolean {
    this.sync();
    const rows = this.rows();
    const at = rows.indexOf(row);
    if (at < 0) return false;
    rows.splice(at, 1);
    this.version++;
    this.count = rows.length;
    this.unindex(row);
    if (this.stale) this.rebuild(rows);
    return true;
  }

  /**
   * Runs `mutate` (which changes key fields of `row` in place, e.g. a rename) and moves the row's
   * index entries from the old keys to the new ones.
   */
  change<T>(row: R, mutate: () => T): T {
    this.sync();
    this.version++;
    const uniqueBefore = this.keysOf(this.def.unique, row);
    const groupsBefore = this.keysOf(this.def.groups, row);
    const result = mutate();
    const uniqueAfter = this.keysOf(this.def.unique, row);
    for (const view of Object.keys(this.def.unique) as U[]) {
      const [before, after] = [uniqueBefore.get(view), uniqueAfter.get(view)];
      if (before === after) continue;
      const map = this.uniqueMaps.get(view)!;
      if (before !== undefined && map.get(before) === row) {
        map.delete(before);
        if (this.collided) this.stale = true;
      }
      if (after !== undefined) {
        if (!map.has(after)) map.set(after, row);
        else this.stale = true;
      }
    }
    // A row that changes group would have to be inserted at its array position: rebuild instead (rare).
    const groupsAfter = this.keysOf(this.def.groups, row);
    for (const [view, key] of groupsBefore) if (groupsAfter.get(view) !== key) this.stale = true;
    for (const view of groupsAfter.keys()) if (!groupsBefore.has(view)) this.stale = true;
    return result;
  }

  private keysOf<V extends string>(defs: Record<V, KeyOf<R>>, row: R): Map<V, IndexKey> {
    const keys = new Map<V, IndexKey>();
    for (const [view, keyOf] of Object.entries(defs) as [V, KeyOf<R>][]) {
      const key = keyOf(row);
      if (key !== undefined) keys.set(view, key);
    }
    return keys;
  }

  private sync(): void {
    const rows = this.rows();
    if (this.stale || rows !== this.seen || rows.length < this.count) {
      this.rebuild(rows);
      return;
    }
    if (rows.length === this.count) return;
    this.version++;
    for (let i = this.count; i < rows.length; i++) this.index(rows[i]!);
    this.count = rows.length;
    // A collision while appending: rebuild now, so that the answer is the first row in array order.
    if (this.stale) this.rebuild(rows);
  }

  private rebuild(rows: R[]): void {
    this.stale = false;
    this.collided = false;
    this.version++;
    for (const view of Object.keys(this.def.unique) as U[]) this.uniqueMaps.set(view, new Map());
    for (const view of Object.keys(this.def.groups) as G[]) this.groupMaps.set(view, new Map());
    this.seen = rows;
    this.count = rows.length;
    for (const r of rows) this.addUnique(r, true);
    for (const r of rows) this.addGroups(r);
  }

  private index(row: R): void {
    this.addUnique(row, false);
    this.addGroups(row);
  }

  /** During a rebuild the first row in array order keeps the key; otherwise a collision means a rebuild. */
  private addUnique(row: R, rebuilding: boolean): void {
    for (const [view, keyOf] of Object.entries(this.def.unique) as [U, KeyOf<R>][]) {
      const key = keyOf(row);
      if (key === undefined) continue;
      const map = this.uniqueMaps.get(view)!;
      if (!map.has(key)) map.set(key, row);
      else if (map.get(key) !== row) {
        this.collided = true;
        if (!rebuilding) this.stale = true;
      }
    }
  }

  /** Appends the row to its groups: appended rows come last in the array too, so array order holds. */
  private addGroups(row: R): void {
    for (const [view, keyOf] of Object.entries(this.def.groups) as [G, KeyOf<R>][]) {
      const key = keyOf(row);
      if (key === undefined) continue;
      const map = this.groupMaps.get(view)!;
      const list = map.get(key);
      if (list) list.push(row);
      else map.set(key, [row]);
    }
  }

  private unindex(row: R): void {
    for (const [view, keyOf] of Object.entries(this.def.unique) as [U, KeyOf<R>][]) {
      const key = keyOf(row);
      if (key === undefined) continue;
      const map = this.uniqueMaps.get(view)!;
      if (map.get(key) === row) {
        map.delete(key);
        if (this.collided) this.stale = true;
      }
    }
    for (const [view, keyOf] of Object.entries(this.def.groups) as [G, KeyOf<R>][]) {
      const key = keyOf(row);
      if (key === undefined) continue;
      const map = this.groupMaps.get(view)!;
      const list = map.get(key);
      if (!list) continue;
      const at = list.indexOf(row);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) map.delete(key);
    }
  }

}

/** An index over one array of the state: which array, and its views. */
export interface IndexSpec<R extends object, U extends string, G extends string> extends IndexDefinition<R, U, G> {
  table: string;
}

/** `defineIndex<Row>()({ table, unique, groups })`: the row type is given, the view names are inferred. */
export function defineIndex<R extends object>() {
  return <U extends string = never, G extends string = never>(spec: { table: string; unique?: Record<U, KeyOf<R>>; groups?: Record<G, KeyOf<R>> }): IndexSpec<R, U, G> => ({
    table: spec.table,
    unique: spec.unique ?? ({} as Record<U, KeyOf<R>>),
    groups: spec.groups ?? ({} as Record<G, KeyOf<R>>),
  });
}

/** One index per state and spec (a state loaded from a file starts with none). */
export class IndexRegistry {
  private readonly built = new Map<IndexSpec<object, string, string>, TableIndex<object>>();

  constructor(private readonly data: () => Record<string, unknown>) {}

  of<R extends object, U extends string, G extends string>(spec: IndexSpec<R, U, G>): TableIndex<R, U, G> {
    let index = this.built.get(spec as unknown as IndexSpec<object, string, string>) as TableIndex<R, U, G> | undefined;
    if (!index) {
      index = new TableIndex<R, U, G>(
        () => ((this.data()[spec.table] as R[] | undefined) ?? []),
        (rows) => {
          this.data()[spec.table] = rows;
        },
        spec,
      );
      this.built.set(spec as unknown as IndexSpec<object, string, string>, index as unknown as TableIndex<object>);
    }
    return index;
  }
}
