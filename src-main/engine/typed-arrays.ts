// Growth helpers for the engine's typed-array pools: copy into a larger array of the same kind.

export function grownF64(a: Float64Array, cap: number): Float64Array {
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}

export function grownI32(a: Int32Array, cap: number): Int32Array {
  const b = new Int32Array(cap);
  b.set(a);
  return b;
}
