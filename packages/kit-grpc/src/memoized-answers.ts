import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * A service definition whose named unary methods keep the encoded bytes of each answer object
 * they send (a WeakMap keyed by that object): for answers that never change and are sent again
 * and again as the same object, such as a cached flow, protobuf encoding runs once per object
 * instead of once per call. grpc-js copies the bytes into each response frame, so sharing them is
 * safe. Handlers must only return a memoized object when its content can no longer change.
 */
export function memoizeSerialization<D extends ServiceDefinition>(definition: D, methods: (keyof D & string)[]): D {
  const out: Record<string, MethodDefinition<unknown, unknown>> = { ...definition };
  for (const name of methods) {
    const method = definition[name];
    if (!method) throw new Error(`memoizeSerialization: the service has no method ${name}`);
    const encoded = new WeakMap<object, Buffer>();
    out[name] = {
      ...method,
      responseSerialize: (value: unknown) => {
        if (typeof value !== 'object' || value === null) return method.responseSerialize(value);
        let bytes = encoded.get(value);
        if (!bytes) {
          bytes = method.responseSerialize(value);
          encoded.set(value, bytes);
        }
        return bytes;
      },
    };
  }
  return out as unknown as D;
}
