// FFmpeg 5.1 (Debian libavformat-dev, libavcodec-dev, libswresample-dev) for Swift.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/log.h>
#include <errno.h>

// Function-like macros do not reach Swift: the few error codes and constants the decoder needs.
static inline int beattag_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int beattag_averror_eof(void) { return AVERROR_EOF; }
static inline int beattag_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int beattag_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int beattag_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t beattag_av_nopts_value(void) { return AV_NOPTS_VALUE; }
