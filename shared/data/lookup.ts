/**
 * Reference lists the product ships with. Each list carries a version: a change to a list is a new
 * version, so a client that cached one can tell, and the figure behind an old answer can be traced.
 */
export interface VersionedList<T> {
  version: string;
  data: readonly T[];
}

/** An option of a select list: the stored value and the label shown. */
export interface NamedOption {
  value: string;
  name: string;
}
