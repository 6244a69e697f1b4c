import { isInFolder, ROOT_FOLDER } from './folder-path.js';

export type GrantAccess = 'read' | 'write';

/** A folder subtree a key may see (`read`) or also change (`write`). */
export interface Grant {
  folder: string;
  access: GrantAccess;
}

/**
 * What a caller may see and change. Every call into the services and the storage port carries one: the admin
 * scope sees everything; a tenant scope only its grants' subtrees.
 */
export type Scope =
  | { readonly admin: true }
  | { readonly admin: false; readonly grants: readonly Grant[] };

export const ADMIN_SCOPE: Scope = Object.freeze({ admin: true });

export function tenantScope(grants: readonly Grant[]): Scope {
  return Object.freeze({ admin: false, grants: Object.freeze(grants.map((grant) => Object.freeze({ ...grant }))) });
}

export function canRead(scope: Scope, folder: string): boolean {
  return scope.admin || scope.grants.some((grant) => isInFolder(folder, grant.folder));
}

export function canWrite(scope: Scope, folder: string): boolean {
  return scope.admin || scope.grants.some((grant) => grant.access === 'write' && isInFolder(folder, grant.folder));
}

/** Where a create without a folder goes: the first write grant, or the root for the admin. */
export function defaultFolder(scope: Scope): string {
  if (scope.admin) return ROOT_FOLDER;
  return scope.grants.find((grant) => grant.access === 'write')?.folder ?? ROOT_FOLDER;
}

/**
 * The subtrees a scope sees inside `requested` (a folder filter, or everything): null when it sees all of it,
 * else the list (empty when none). A grant inside the requested folder is seen whole; a requested folder inside
 * a grant is seen whole; grants nested in other grants are folded into them.
 */
export function visibleSubtrees(scope: Scope, requested: string = ROOT_FOLDER): string[] | null {
  if (scope.admin) return null;
  if (scope.grants.some((grant) => isInFolder(requested, grant.folder))) return null;
  const inside = scope.grants.map((grant) => grant.folder).filter((folder) => isInFolder(folder, requested));
  return [...new Set(inside)].filter((folder) => !inside.some((other) => other !== folder && isInFolder(folder, other))).sort();
}

/** True when every grant of `narrower` lies inside a grant of `wider` with at least its access. */
export function isSubScope(narrower: readonly Grant[], wider: Scope): boolean {
  return narrower.every((grant) => (grant.access === 'write' ? canWrite : canRead)(wider, grant.folder));
}

/** The scope's grants folded to a stable key: two callers with the same grants share scoped services. */
export function scopeFingerprint(scope: Scope): string {
  if (scope.admin) return 'admin';
  return JSON.stringify(scope.grants.map((grant) => [grant.folder, grant.access]));
}
