// What the C library declares but the Glibc module does not export. Part of the C library;
// nothing to link.

// Extended attributes (listxattr, getxattr, fsetxattr): SafeWriter copies them, POSIX ACLs
// included, to a fixed file.
#include <sys/xattr.h>

#if defined(__GLIBC__)
#include <sched.h>
// The processors this process may run on, as glibc declares it with _GNU_SOURCE (the module is
// built without it): under taskset or in a cpuset (a container's --cpuset-cpus) a run makes one
// thread per processor it may use, not per processor online.
extern int sched_getaffinity(__pid_t pid, size_t cpusetsize, cpu_set_t *cpuset);
#endif
