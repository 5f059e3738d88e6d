import Foundation

/// An advisory lock on a file beside the catalog (`flock`): one process at a time holds it, and
/// the kernel releases it when that process ends, however it ends (kill -9 included).
final class FileLock {
    private let fd: Int32

    /// Takes the lock, waiting for it unless `wait` is false (then nil while another process holds
    /// it). `onWait` is called once before waiting; the wait ends (nil) as soon as `stopWaiting`
    /// says so: a blocking `flock` outlives a Ctrl-C whose handler restarts system calls, and the
    /// scan that had not started waited out the other one (hours on a large library).
    init?(path: String, wait: Bool, onWait: () -> Void = {}, stopWaiting: () -> Bool = { false }) throws {
        fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CatalogError.cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard wait else { close(fd); return nil }
            onWait()
            while flock(fd, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    close(fd)
                    throw CatalogError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
                }
                if stopWaiting() { close(fd); return nil }
                usleep(50_000)
            }
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
