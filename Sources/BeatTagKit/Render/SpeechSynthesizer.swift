import CEspeak
import Foundation

/// Spoken cues through espeak-ng: synchronous synthesis (mono 16-bit at 22,050 Hz) handed back as
/// float samples. espeak-ng keeps global state and is not thread-safe: one synthesis at a time,
/// behind one lock, initialised once. A missing voice-data directory is a clear error, not an exit.
public enum SpeechSynthesizer {
    public struct SpeechError: Error, CustomStringConvertible {
        public var description: String
    }

    private static let lock = NSLock()
    private static var sampleRate: Int32 = 0
    /// Where the callback collects the samples of the synthesis in progress (guarded by `lock`).
    nonisolated(unsafe) private static var collected: [Float] = []

    /// The words spoken (English voice, 170 words per minute), at `outputRate`.
    public static func speak(_ text: String, outputRate: Int) throws -> [Float] {
        if let reason = OptionalLibrary.espeak.unavailableReason { throw SpeechError(description: "spoken cues need espeak-ng: \(reason)") }
        lock.lock()
        defer { lock.unlock() }
        if sampleRate == 0 {
            // DONT_EXIT: without its data directory espeak-ng would end the whole process. It also
            // prints its own message to stderr then; ours (one line) replaces it.
            let savedStderr = dup(STDERR_FILENO)
            let devNull = open("/dev/null", O_WRONLY)
            if devNull >= 0 { dup2(devNull, STDERR_FILENO); close(devNull) }
            let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, nil, Int32(beattag_espeak_dont_exit()))
            if savedStderr >= 0 { dup2(savedStderr, STDERR_FILENO); close(savedStderr) }
            guard rate > 0 else {
                throw SpeechError(description: "espeak-ng cannot start: its voice data is missing (install espeak-ng-data, or set ESPEAK_DATA_PATH to the folder holding espeak-ng-data)")
            }
            sampleRate = rate
            espeak_SetSynthCallback { wav, count, _ in
                if let wav, count > 0 {
                    for i in 0..<Int(count) { SpeechSynthesizer.collected.append(Float(wav[i]) / 32768) }
                }
                return 0
            }
        }
        guard espeak_SetVoiceByName("en") == EE_OK else { throw SpeechError(description: "espeak-ng has no English voice") }
        espeak_SetParameter(espeakRATE, 170, 0)
        collected = []
        let bytes = Array(text.utf8CString)
        let status = bytes.withUnsafeBufferPointer { buffer in
            espeak_Synth(buffer.baseAddress, buffer.count, 0, POS_CHARACTER, 0, beattag_espeak_utf8_endpause(), nil, nil)
        }
        guard status == EE_OK else { throw SpeechError(description: "espeak-ng could not speak \"\(text)\"") }
        let speech = collected
        collected = []
        return try StereoResampler.resampleMono(speech, from: Int(sampleRate), to: outputRate)
    }
}
