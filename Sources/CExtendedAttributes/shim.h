// Extended attributes (listxattr, getxattr, fsetxattr), which the Glibc module does not export:
// SafeWriter copies them, POSIX ACLs included, to a fixed file. Part of the C library; nothing
// to link.
#include <sys/xattr.h>
