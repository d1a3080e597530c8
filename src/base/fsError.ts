// A file-system error as one line: its code and what the code means, for refusals such as
// "--out x is not a writable folder: EROFS (read-only file system)".

const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'is a folder',
  ENOTDIR: 'a part of the path is not a folder',
  ENAMETOOLONG: 'the name is too long',
  ENOENT: 'the path cannot be created there',
  // Where a read failed (an error's meaning differs by what was asked of the path).
  'read ENOENT': 'no such file or folder',
  'read EISDIR': 'it is a folder, not a file',
  EEXIST: 'already exists',
  EIO: 'input/output error',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  EBUSY: 'busy',
  EXDEV: 'on another device',
};

/**
 * One line for a file-system error: its code and what it means, for a write unless `op` says the
 * path was read (a missing path is then missing, not a place nothing can be created).
 */
export function describeFsError(error: unknown, op: 'write' | 'read' = 'write'): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return undefined;
  return `${code} (${(op === 'read' ? ERRNO_TEXT[`read ${code}`] : undefined) ?? ERRNO_TEXT[code] ?? 'file-system error'})`;
}
