/**
 * What of a T may be present. The console's rules (the *-rules.ts files)
 * take their input so: they read only the fields they need, check each,
 * and their tests give only those fields.
 */
export type DeepPartial<T> = T extends (infer E)[]
  ? DeepPartial<E>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;
