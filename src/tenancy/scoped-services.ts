import { scopeFingerprint, type Scope } from '../domain/scope.js';

/** Distinct scopes whose services are kept built; past it the least recently used are built again when asked. */
const MAX_SCOPES = 256;

/**
 * The feature services one scope sees, built on first use over storage narrowed to that scope and kept per set of
 * grants (keys and tokens with the same grants share them). Services hold no per-caller state, so sharing is safe.
 */
export class ScopedServices<T> {
  private readonly built = new Map<string, T>();
  /** The same scope object again (a key's principal is kept a while): no fingerprint to compute. */
  private readonly byScope = new WeakMap<Scope, T>();

  constructor(private readonly build: (scope: Scope) => T, readonly admin: T) {}

  for(scope: Scope): T {
    if (scope.admin) return this.admin;
    const known = this.byScope.get(scope);
    if (known) return known;
    const key = scopeFingerprint(scope);
    let services = this.built.get(key);
    if (services) {
      // Most recently used last: Map keeps insertion order.
      this.built.delete(key);
    } else {
      services = this.build(scope);
      if (this.built.size >= MAX_SCOPES) this.built.delete(this.built.keys().next().value!);
    }
    this.built.set(key, services);
    this.byScope.set(scope, services);
    return services;
  }
}
