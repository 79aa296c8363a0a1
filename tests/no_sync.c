/* Preloaded into the test processes (tests/no_sync.py): the calls that flush a file to the
 * disk return at once. What they buy, data that survives a power cut, no test can observe,
 * and on a shared virtual disk they were most of a test's wall time. */
#include <stddef.h>
#include <sys/types.h>

int fsync(int fd) { (void)fd; return 0; }
int fdatasync(int fd) { (void)fd; return 0; }
int syncfs(int fd) { (void)fd; return 0; }
void sync(void) {}
int msync(void *addr, size_t length, int flags) {
    (void)addr;
    (void)length;
    (void)flags;
    return 0;
}
int sync_file_range(int fd, off_t offset, off_t nbytes, unsigned int flags) {
    (void)fd;
    (void)offset;
    (void)nbytes;
    (void)flags;
    return 0;
}
