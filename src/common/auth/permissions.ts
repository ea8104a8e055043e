/**
 * API-key permissions (API.md §2.4): `*`, or a non-empty list of `<resource>:read|write`.
 * `write` does not imply `read`.
 */
export const PERMISSION_RESOURCES = [
  'customers',
  'products',
  'checkouts',
  'payment-links',
  'transparents',
  'coupons',
  'subscriptions',
  'webhooks',
  'payouts',
  'disputes',
] as const;

export type PermissionResource = (typeof PERMISSION_RESOURCES)[number];
export type Permission = `${PermissionResource}:${'read' | 'write'}`;
export type Grant = '*' | Permission;

export const ALL_PERMISSIONS: Permission[] = PERMISSION_RESOURCES.flatMap((resource) => [
  `${resource}:read` as Permission,
  `${resource}:write` as Permission,
]);

const PERMISSION_SET = new Set<string>(ALL_PERMISSIONS);

export type ParsedPermissions = { ok: true; grants: Grant[] } | { ok: false; problem: string };

/** Validates and normalises a requested permission list: `*` alone, or distinct known permissions. */
export function parsePermissions(input: readonly unknown[]): ParsedPermissions {
  if (input.length === 0) return { ok: false, problem: 'permissions must not be empty' };
  if (!input.every((entry): entry is string => typeof entry === 'string')) {
    return { ok: false, problem: 'permissions must be strings' };
  }
  if (input.includes('*')) {
    return input.length === 1
      ? { ok: true, grants: ['*'] }
      : { ok: false, problem: '"*" cannot be combined with other permissions' };
  }
  const unknown = input.filter((entry) => !PERMISSION_SET.has(entry));
  if (unknown.length > 0) {
    return { ok: false, problem: `unknown permission ${JSON.stringify(unknown[0])}: use "<resource>:read" or "<resource>:write"` };
  }
  const distinct = [...new Set(input)] as Permission[];
  return { ok: true, grants: ALL_PERMISSIONS.filter((permission) => distinct.includes(permission)) };
}

export function isGranted(grants: readonly Grant[], required: Permission): boolean {
  return grants.includes('*') || grants.includes(required);
}
