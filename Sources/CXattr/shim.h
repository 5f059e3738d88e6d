// Extended attributes (getxattr, setxattr, listxattr): in glibc, but not in Swift's Glibc module.
#include <sys/xattr.h>
