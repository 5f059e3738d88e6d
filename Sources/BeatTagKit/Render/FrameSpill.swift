import Foundation

/// Stereo frames one render stage writes and the next reads, kept in a file beside the output
/// instead of in memory: an excerpt is 23 MB a minute per stage at 48 kHz, and a run may play
/// most of an hour-long mix. The file is unlinked as soon as it is made, so it has no name to
/// leave behind however the render ends; the system frees it when it is closed.
final class FrameSpill {
    private let descriptor: Int32
    private let place: String
    /// Frames appended so far.
    private(set) var frameCount = 0
    private var interleaved: [Float] = []

    /// `path`: the output file; the spill goes into its folder (not /tmp, often a RAM disk).
    init(beside path: String) throws {
        let target = FileWalker.absolutePath(path)
        let folder = (target as NSString).deletingLastPathComponent
        place = folder
        // The name bounded as the mix's partial file's is: a 250-byte output name still fits.
        var template = Array("\(folder)/.\(WorkingFile.boundedName(of: target)).stage-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FrameSpill.failure(errno, "cannot stage audio in \(folder)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)  // not inherited by the processes a render may start
        guard unlink(String(cString: template)) == 0 else {
            let code = errno
            close(fd)
            throw FrameSpill.failure(code, "cannot stage audio in \(folder)")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    private static func failure(_ code: Int32, _ what: String) -> MixWriteError {
        MixWriteError(description: "\(what): \(String(cString: strerror(code)))")
    }

    /// Appends interleaved stereo frames.
    func append(interleaved frames: UnsafeBufferPointer<Float>) throws {
        let raw = UnsafeRawBufferPointer(frames)
        var done = 0
        while done < raw.count {
            let n = pwrite(descriptor, raw.baseAddress! + done, raw.count - done, off_t(8 * frameCount + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FrameSpill.failure(n == 0 ? EIO : errno, "cannot stage audio in \(place)") }
            done += n
        }
        frameCount += frames.count / 2
    }

    /// Appends `count` frames of each channel.
    func append(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>, count: Int) throws {
        guard count > 0 else { return }
        if interleaved.count < 2 * count { interleaved = [Float](repeating: 0, count: 2 * count) }
        for i in 0..<count {
            interleaved[2 * i] = left[i]
            interleaved[2 * i + 1] = right[i]
        }
        try interleaved.withUnsafeBufferPointer { try append(interleaved: UnsafeBufferPointer(rebasing: $0[0..<(2 * count)])) }
    }

    func append(left: [Float], right: [Float]) throws {
        try left.withUnsafeBufferPointer { l in
            try right.withUnsafeBufferPointer { r in try append(left: l, right: r, count: min(l.count, r.count)) }
        }
    }

    /// Interleaved frames `from ..< from + count`; frames past the end read as silence.
    func readInterleaved(from: Int, count: Int, into buffer: UnsafeMutableBufferPointer<Float>) throws {
        let stored = max(0, min(count, frameCount - from))
        let raw = UnsafeMutableRawBufferPointer(buffer)
        var done = 0
        while done < 8 * stored {
            let n = pread(descriptor, raw.baseAddress! + done, 8 * stored - done, off_t(8 * from + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw FrameSpill.failure(n == 0 ? EIO : errno, "cannot read audio staged in \(place)") }
            done += n
        }
        for i in (2 * stored)..<(2 * count) { buffer[i] = 0 }
    }

    /// Frames `from ..< from + count` as two channels; frames past the end read as silence.
    func read(from: Int, count: Int) throws -> (left: [Float], right: [Float]) {
        var buffer = [Float](repeating: 0, count: 2 * count)
        try buffer.withUnsafeMutableBufferPointer { try readInterleaved(from: from, count: count, into: $0) }
        var left = [Float](repeating: 0, count: count), right = left
        for i in 0..<count {
            left[i] = buffer[2 * i]
            right[i] = buffer[2 * i + 1]
        }
        return (left, right)
    }
}
